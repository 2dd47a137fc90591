package metrics

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Efficiency and cost (NL2SQLBench paper, Section 3.1.4 and Tables 9-10): tokens (prompt +
// completion) and LLM calls per question, end to end and per module, and dollars from a
// pricing table.
//
// Two means are reported, each labelled: over all questions (a question with no reported
// usage counts as 0), and the NL2SQLBench repository's convention, over the questions with
// non-zero usage only. Token counts a system did not report are unknown, not zero: a
// system with no usage at all gets no efficiency section.

// ErrBadPricing reports a malformed pricing table.
var ErrBadPricing = errors.New("bad pricing table")

// DefaultCacheHitShare is the share of prompt tokens assumed to hit the provider's prompt
// cache, as the paper assumes (half hit, half miss).
const DefaultCacheHitShare = 0.5

// ModelPrice is one model's price in dollars per 1M tokens.
type ModelPrice struct {
	Input       float64 `yaml:"input" json:"input"`
	CachedInput float64 `yaml:"cached_input" json:"cached_input"`
	Output      float64 `yaml:"output" json:"output"`
}

// MaxPrice bounds a price per million tokens: far over any real one, and low enough that
// no token count makes a cost overflow to +Inf.
const MaxPrice = 1e6

// CheckPrices refuses a price that is negative, not a number, infinite or over
// MaxPrice: each would print a cost its usage does not support (NaN, +Inf).
func CheckPrices(prices ...float64) error {
	for _, p := range prices {
		switch {
		case math.IsNaN(p) || math.IsInf(p, 0):
			return fmt.Errorf("price %v is not a number", p)
		case p < 0:
			return fmt.Errorf("negative price %v", p)
		case p > MaxPrice:
			return fmt.Errorf("price %v is over %v per million tokens", p, float64(MaxPrice))
		}
	}
	return nil
}

// Pricing is the pricing table (a YAML or JSON file; see docs/pricing.example.yaml).
type Pricing struct {
	// CacheHitShare is the share of prompt tokens billed at the cached-input price
	// (default 0.5).
	CacheHitShare *float64 `yaml:"cache_hit_share" json:"cache_hit_share"`
	// DefaultModel prices systems not listed in Systems.
	DefaultModel string `yaml:"default_model" json:"default_model"`
	// Models maps a model name to its prices.
	Models map[string]ModelPrice `yaml:"models" json:"models"`
	// Systems maps a system name to the model it used.
	Systems map[string]string `yaml:"systems" json:"systems"`
}

// ParsePricing reads a pricing table from YAML (JSON is YAML too) and checks it.
func ParsePricing(data []byte) (*Pricing, error) {
	var p Pricing
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%v: %w", err, ErrBadPricing)
	}
	if s := p.CacheHitShare; s != nil && (*s < 0 || *s > 1 || math.IsNaN(*s)) {
		return nil, fmt.Errorf("cache_hit_share %v is not between 0 and 1: %w", *s, ErrBadPricing)
	}
	if len(p.Models) == 0 {
		return nil, fmt.Errorf("no models: %w", ErrBadPricing)
	}
	for name, m := range p.Models {
		if err := CheckPrices(m.Input, m.CachedInput, m.Output); err != nil {
			return nil, fmt.Errorf("model %q: %v: %w", name, err, ErrBadPricing)
		}
	}
	if p.DefaultModel != "" {
		if _, ok := p.Models[p.DefaultModel]; !ok {
			return nil, fmt.Errorf("default_model %q is not in models: %w", p.DefaultModel, ErrBadPricing)
		}
	}
	for sys, m := range p.Systems {
		if _, ok := p.Models[m]; !ok {
			return nil, fmt.Errorf("system %q: model %q is not in models: %w", sys, m, ErrBadPricing)
		}
	}
	return &p, nil
}

// ModelFor returns the model that prices system ("" when none does).
func (p *Pricing) ModelFor(system string) (string, ModelPrice, bool) {
	if p == nil {
		return "", ModelPrice{}, false
	}
	name := p.Systems[system]
	if name == "" {
		name = p.DefaultModel
	}
	m, ok := p.Models[name]
	return name, m, ok
}

// Share is the cache-hit share in force.
func (p *Pricing) Share() float64 {
	if p == nil || p.CacheHitShare == nil {
		return DefaultCacheHitShare
	}
	return *p.CacheHitShare
}

// Cost is the dollar cost of prompt and completion tokens, share of the prompt billed at
// the cached price.
func (m ModelPrice) Cost(prompt, completion int, share float64) float64 {
	p := float64(prompt)
	return (p*(1-share)*m.Input + p*share*m.CachedInput + float64(completion)*m.Output) / 1e6
}

// Means are a quantity averaged two ways.
type Means struct {
	// AllQuestions divides by every judged question (no usage counts as 0).
	AllQuestions float64 `json:"mean_all_questions"`
	// NonzeroQuestions divides by the questions with non-zero usage (the NL2SQLBench
	// repository's convention); 0 when there are none.
	NonzeroQuestions float64 `json:"mean_nonzero_questions"`
	Total            float64 `json:"total"`
}

func meansOf(xs []float64, n int) Means {
	var m Means
	nz := 0
	for _, x := range xs {
		m.Total += x
		if x != 0 {
			nz++
		}
	}
	if n > 0 {
		m.AllQuestions = m.Total / float64(n)
	}
	if nz > 0 {
		m.NonzeroQuestions = m.Total / float64(nz)
	}
	return m
}

// TokenCost is one system's (or one module's) usage and cost.
type TokenCost struct {
	Questions int `json:"questions"`  // judged questions
	WithUsage int `json:"with_usage"` // of those, questions with non-zero tokens or calls
	// Tokens is prompt + completion (or the reported total). Tokens, Prompt, Completion
	// and Cost are nil when no question reported a token count (TokensUnknown): unknown
	// is not zero.
	Tokens        *Means `json:"tokens,omitempty"`
	Prompt        *Means `json:"prompt_tokens,omitempty"`
	Completion    *Means `json:"completion_tokens,omitempty"`
	TokensUnknown bool   `json:"tokens_unknown,omitempty"`
	Calls         Means  `json:"llm_calls"`
	// TotalOnly counts questions whose usage gave only a total, no prompt/completion
	// split: their cost prices the whole total as prompt tokens (a lower bound).
	TotalOnly int `json:"total_only"`
	// LatencyMS is the reported wall time per question, in milliseconds; nil when no
	// question reported one (collect's records do: latency_ms per module).
	LatencyMS *Means `json:"latency_ms,omitempty"`
	// Model and Cost are set when a pricing table prices this system.
	Model string `json:"model,omitempty"`
	Cost  *Means `json:"cost_usd,omitempty"`
}

// tokensOf is a usage's token count: prompt + completion, else the reported total.
func tokensOf(u record.Usage) (tokens, prompt, completion int, totalOnly bool) {
	if u.PromptTokens+u.CompletionTokens > 0 {
		return u.PromptTokens + u.CompletionTokens, u.PromptTokens, u.CompletionTokens, false
	}
	return u.TotalTokens, u.TotalTokens, 0, u.TotalTokens > 0
}

// TokenCostOfUsage computes efficiency from per-question usages (one per judged
// question). price, when non-nil, adds cost. It returns nil when no question has usage.
func TokenCostOfUsage(us []record.Usage, model string, price *ModelPrice, share float64) *TokenCost {
	e := &TokenCost{Questions: len(us)}
	tok := make([]float64, len(us))
	pr := make([]float64, len(us))
	co := make([]float64, len(us))
	calls := make([]float64, len(us))
	cost := make([]float64, len(us))
	lat := make([]float64, len(us))
	anyLatency := false
	for i, u := range us {
		lat[i] = float64(u.LatencyMS)
		anyLatency = anyLatency || u.LatencyMS > 0
		t, p, c, totalOnly := tokensOf(u)
		if t > 0 || u.LLMCalls > 0 {
			e.WithUsage++
		}
		if totalOnly {
			e.TotalOnly++
		}
		tok[i], pr[i], co[i], calls[i] = float64(t), float64(p), float64(c), float64(u.LLMCalls)
		if price != nil {
			cost[i] = price.Cost(p, c, share)
		}
	}
	if e.WithUsage == 0 {
		return nil
	}
	n := len(us)
	e.Calls = meansOf(calls, n)
	if anyLatency {
		lm := meansOf(lat, n)
		e.LatencyMS = &lm
	}
	known := false
	for _, t := range tok {
		known = known || t > 0
	}
	if !known {
		e.TokensUnknown = true
		return e
	}
	tm, pm, cm := meansOf(tok, n), meansOf(pr, n), meansOf(co, n)
	e.Tokens, e.Prompt, e.Completion = &tm, &pm, &cm
	if price != nil {
		c := meansOf(cost, n)
		e.Model, e.Cost = model, &c
	}
	return e
}

// TokenCostOf computes a system's end-to-end efficiency from its judged records.
func TokenCostOf(system string, recs []record.Record, p *Pricing) *TokenCost {
	var us []record.Usage
	for i := range recs {
		if recs[i].Judged() {
			us = append(us, recs[i].Usage)
		}
	}
	name, m, ok := p.ModelFor(system)
	var price *ModelPrice
	if ok {
		price = &m
	}
	return TokenCostOfUsage(us, name, price, p.Share())
}

// ModuleTokenCost computes per-module efficiency. usage maps a question id to each
// module's usage for that question; ids lists the judged questions (the denominator of
// the all-questions mean). Modules are returned sorted by name.
func ModuleTokenCost(system string, usage map[string]map[string]record.Usage, ids []string, p *Pricing) map[string]*TokenCost {
	modules := map[string]bool{}
	for _, mu := range usage {
		for m := range mu {
			modules[m] = true
		}
	}
	names := make([]string, 0, len(modules))
	for m := range modules {
		names = append(names, m)
	}
	sort.Strings(names)
	name, mp, ok := p.ModelFor(system)
	var price *ModelPrice
	if ok {
		price = &mp
	}
	out := map[string]*TokenCost{}
	for _, m := range names {
		us := make([]record.Usage, len(ids))
		for i, id := range ids {
			us[i] = usage[id][m]
		}
		if e := TokenCostOfUsage(us, name, price, p.Share()); e != nil {
			out[m] = e
		}
	}
	return out
}
