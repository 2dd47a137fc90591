package metrics

import (
	"errors"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

const pricingYAML = `
cache_hit_share: 0.5
default_model: mini
models:
  mini: {input: 0.15, cached_input: 0.075, output: 0.60}
  big:  {input: 2.0, cached_input: 1.0, output: 8.0}
systems:
  sys-big: big
`

func TestModelPriceCost(t *testing.T) {
	m := ModelPrice{Input: 0.15, CachedInput: 0.075, Output: 0.60}
	// 1M prompt tokens, half cached: 0.5*0.15 + 0.5*0.075 = 0.1125; 1M completion: 0.60.
	if got := m.Cost(1_000_000, 1_000_000, 0.5); !near(got, 0.7125) {
		t.Errorf("cost = %v, want 0.7125", got)
	}
	// No cache: 2000 prompt tokens at 0.15/M = 0.0003; 500 completion at 0.60/M = 0.0003.
	if got := m.Cost(2000, 500, 0); !near(got, 0.0006) {
		t.Errorf("cost = %v, want 0.0006", got)
	}
}

func TestParsePricing(t *testing.T) {
	p, err := ParsePricing([]byte(pricingYAML))
	if err != nil {
		t.Fatal(err)
	}
	if name, m, ok := p.ModelFor("sys-big"); !ok || name != "big" || m.Output != 8 {
		t.Errorf("sys-big priced as %q %+v %v", name, m, ok)
	}
	if name, _, ok := p.ModelFor("other"); !ok || name != "mini" {
		t.Errorf("other priced as %q %v", name, ok)
	}
	if p.Share() != 0.5 || (*Pricing)(nil).Share() != DefaultCacheHitShare {
		t.Error("cache share")
	}
	// JSON is accepted too.
	if _, err := ParsePricing([]byte(`{"models": {"m": {"input": 1, "cached_input": 0.5, "output": 2}}}`)); err != nil {
		t.Errorf("JSON pricing: %v", err)
	}
	bad := []string{
		`models: {}`,
		`cache_hit_share: 1.5` + "\nmodels: {m: {input: 1}}",
		`default_model: x` + "\nmodels: {m: {input: 1}}",
		`systems: {s: x}` + "\nmodels: {m: {input: 1}}",
		`models: {m: {input: -1}}`,
		// NaN, infinite or absurd prices printed a cost of NaN or +Inf.
		`models: {m: {input: .nan}}`,
		`models: {m: {output: .inf}}`,
		`models: {m: {cached_input: 1e308}}`,
		`models: {m: {inptu: 1}}`,
		`models: [`,
	}
	for _, b := range bad {
		if _, err := ParsePricing([]byte(b)); !errors.Is(err, ErrBadPricing) {
			t.Errorf("ParsePricing(%q) err = %v, want ErrBadPricing", b, err)
		}
	}
}

func TestTokenCostMeans(t *testing.T) {
	p, err := ParsePricing([]byte(pricingYAML))
	if err != nil {
		t.Fatal(err)
	}
	recs := []record.Record{
		{Verdict: C, Usage: record.Usage{PromptTokens: 1000, CompletionTokens: 200, TotalTokens: 1200, LLMCalls: 2}},
		{Verdict: I, Usage: record.Usage{TotalTokens: 600, LLMCalls: 1}}, // total only
		{Verdict: E}, // no usage reported
		{Verdict: record.Skipped, Usage: record.Usage{TotalTokens: 99999}},
	}
	e := TokenCostOf("sys", recs, p)
	if e == nil {
		t.Fatal("nil")
	}
	// Tokens 1200, 600, 0 over 3 judged questions: 600 all; 900 over the 2 nonzero.
	if e.Questions != 3 || e.WithUsage != 2 || e.TotalOnly != 1 || !near(e.Tokens.AllQuestions, 600) ||
		!near(e.Tokens.NonzeroQuestions, 900) || !near(e.Calls.AllQuestions, 1) || !near(e.Calls.NonzeroQuestions, 1.5) {
		t.Errorf("means: %+v", e)
	}
	// Cost (mini, half cached): q1 = 1000*(0.5*0.15+0.5*0.075)/1e6 + 200*0.60/1e6 = 0.0001125+0.00012 = 0.0002325;
	// q2 = 600 prompt = 0.0000675. Total 0.0003; mean over 3 = 0.0001.
	if e.Model != "mini" || e.Cost == nil || !near(e.Cost.Total, 0.0003) || !near(e.Cost.AllQuestions, 0.0001) {
		t.Errorf("cost: %+v %+v", e.Model, e.Cost)
	}
	// Without pricing: no cost. Without usage: no section (unknown is not zero).
	if e := TokenCostOf("sys", recs, nil); e == nil || e.Cost != nil || e.LatencyMS != nil {
		t.Errorf("no pricing, no latency: %+v", e)
	}
	// Latency where records carry it: 300, 0, 0 ms: 100 over all judged questions, 300 over the one that reported it.
	timed := append([]record.Record(nil), recs...)
	timed[0].LatencyMS = 300
	if e := TokenCostOf("sys", timed, nil); e == nil || e.LatencyMS == nil || !near(e.LatencyMS.AllQuestions, 100) || !near(e.LatencyMS.NonzeroQuestions, 300) {
		t.Errorf("latency: %+v", e)
	}
	if TokenCostOf("sys", recs[2:3], p) != nil {
		t.Error("a system without usage got a section")
	}
	// Calls known, tokens not: tokens and cost are unknown, not zero.
	callsOnly := []record.Record{{Verdict: C, Usage: record.Usage{LLMCalls: 3}}, {Verdict: I, Usage: record.Usage{LLMCalls: 1}}}
	if e := TokenCostOf("sys", callsOnly, p); e == nil || !e.TokensUnknown || e.Tokens != nil || e.Cost != nil || !near(e.Calls.AllQuestions, 2) {
		t.Errorf("calls only: %+v", e)
	}
}

func TestModuleTokenCost(t *testing.T) {
	usage := map[string]map[string]record.Usage{
		"q1": {"schema_selection": {TotalTokens: 100, LLMCalls: 1}, "candidate_generation": {TotalTokens: 300, LLMCalls: 1}},
		"q2": {"candidate_generation": {TotalTokens: 500, LLMCalls: 2}},
	}
	got := ModuleTokenCost("s", usage, []string{"q1", "q2", "q3"}, nil)
	ss, cg := got["schema_selection"], got["candidate_generation"]
	// schema_selection: 100 over 3 questions; 100 over 1 nonzero. candidate_generation: 800/3, 800/2.
	if ss == nil || cg == nil || !near(ss.Tokens.AllQuestions, 100.0/3) || !near(ss.Tokens.NonzeroQuestions, 100) ||
		!near(cg.Tokens.AllQuestions, 800.0/3) || !near(cg.Tokens.NonzeroQuestions, 400) || !near(cg.Calls.AllQuestions, 1) {
		t.Errorf("modules: ss %+v cg %+v", ss, cg)
	}
}
