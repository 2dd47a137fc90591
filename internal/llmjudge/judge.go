package llmjudge

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/nl2sqlbench/nl2sqlbench/internal/audit"
	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Sentinel errors that stop a run: records written before are complete, and a resumed
// run (with the same judge) continues.
var (
	// ErrCostCap: the spend reached --llm-judge-max-cost.
	ErrCostCap = errors.New("llm judge: cost cap reached")
	// ErrEndpoint: the endpoint kept failing after its retries.
	ErrEndpoint = errors.New("llm judge: endpoint failed")
)

// Which records the judge is asked about (--llm-judge-on).
const (
	OnDisputed = "disputed" // the run's own evidence disagrees with EX, or EX is in doubt
	OnAll      = "all"      // every judged record
)

// Options configure a Judge.
type Options struct {
	On string // OnDisputed ("" too) or OnAll
	// MaxCost stops the run once this invocation's new calls cost this many dollars
	// (cached answers cost nothing); 0: no cap. It needs the config's pricing.
	MaxCost float64
	Limits  engine.Limits // for the samples the prompt shows: the run's timeout and caps
	// CachePath is the answer cache (collect's format), opened at the first record the
	// judge is asked about, so a run that fails before judging leaves no file; "": none.
	CachePath string
}

// Judge is the LLM judge, a judge.Annotator. Safe for concurrent use.
type Judge struct {
	llm       collect.LLM
	cache     *collect.Cache // nil: no cache
	cacheOnce sync.Once
	cacheErr  error
	cfg       *collect.Config
	prompt    *Prompt
	opt       Options
	db        Querier
	own       *engine.SQLite
	schemas   *dbschema.Introspections

	audits sync.Map // question index -> *goldAudit

	mu    sync.Mutex
	stats Stats
}

// Stats count what the judge did in this invocation.
type Stats struct {
	Asked    int // records the judge was asked about (cached answers included)
	Judged   int // ... that got a verdict
	Unjudged int // ... whose answer did not parse (no verdict; the record says why)
	Cached   int // answers taken from the cache (no call, no cost)
	// Calls, tokens and Cost are this invocation's new calls only.
	Calls                          int
	PromptTokens, CompletionTokens int
	Cost                           float64
}

// New makes a judge calling llm (collect's client) with cfg's model, sampling and
// pricing, answering from the cache at opt.CachePath when it can. db runs the sample queries (nil: the
// judge's own read-only SQLite engine, closed by Close).
func New(cfg *collect.Config, llm collect.LLM, prompt *Prompt, db Querier, opt Options) (*Judge, error) {
	switch opt.On {
	case "":
		opt.On = OnDisputed
	case OnDisputed, OnAll:
	default:
		return nil, fmt.Errorf("--llm-judge-on %q: want disputed or all", opt.On)
	}
	if opt.MaxCost < 0 || math.IsNaN(opt.MaxCost) || math.IsInf(opt.MaxCost, 0) {
		return nil, fmt.Errorf("--llm-judge-max-cost %v is negative", opt.MaxCost)
	}
	if opt.MaxCost > 0 && cfg.Pricing == nil {
		return nil, fmt.Errorf("--llm-judge-max-cost needs prices: add a pricing section (input, output per 1M tokens) to the judge's config")
	}
	j := &Judge{llm: llm, cfg: cfg, prompt: prompt, opt: opt, db: db, schemas: &dbschema.Introspections{}}
	if db == nil {
		j.own = engine.NewSQLite()
		j.db = j.own
	}
	return j, nil
}

// Close closes the cache and the judge's own engine, if it made one.
func (j *Judge) Close() error {
	var err error
	if j.own != nil {
		err = j.own.Close()
	}
	if j.cache != nil {
		if cerr := j.cache.Close(); err == nil {
			err = cerr
		}
		j.cache = nil
	}
	return err
}

// openCache opens the cache once; nil without a path.
func (j *Judge) openCache() (*collect.Cache, error) {
	j.cacheOnce.Do(func() {
		if j.opt.CachePath != "" {
			j.cache, j.cacheErr = collect.OpenCache(j.opt.CachePath)
		}
	})
	return j.cache, j.cacheErr
}

// Setting names the judge for the run's manifest: its endpoint and model, the prompt's
// sha256 and which records it judges. A resume with another is refused; the cap is not
// part of it (it changes how far a run gets, not what it finds).
func (j *Judge) Setting() string {
	s := fmt.Sprintf("model=%s base_url=%s prompt=sha256:%s on=%s", j.cfg.LLM.Model, j.cfg.LLM.BaseURL, j.prompt.Hash, j.opt.On)
	if t := j.cfg.LLM.Temperature; t != nil {
		s += fmt.Sprintf(" temperature=%g", *t)
	}
	return s
}

// Stats returns the counts so far.
func (j *Judge) Stats() Stats {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.stats
}

// goldAudit is one question's gold audit, shared by every system's record.
type goldAudit struct {
	once     sync.Once
	findings []audit.Finding
	err      error
}

func (j *Judge) goldFindings(ctx context.Context, q *dataset.Question, dbPath string) ([]audit.Finding, error) {
	v, _ := j.audits.LoadOrStore(q.Index, &goldAudit{})
	a := v.(*goldAudit)
	a.once.Do(func() {
		if dbPath != "" {
			a.findings, a.err = audit.Gold(ctx, j.db, dbPath, q, j.opt.Limits)
		}
	})
	return a.findings, a.err
}

// Disputed reports why rec is disputed ("" when it is not): the prediction failed to
// run, EX and ETM disagree, the counterexample search refuted EX, or the gold's audit
// found something.
func Disputed(rec *record.Record, goldFindings int) string {
	correct := rec.Verdict == record.Correct
	switch {
	case rec.Verdict == record.Error:
		return "execution error"
	case rec.ETM != nil && (*rec.ETM == 1) != correct:
		return "EX and ETM disagree"
	case correct && rec.TSEX != nil && *rec.TSEX == 0:
		return "ts_ex refuted EX"
	case goldFindings > 0:
		return "audit finding"
	}
	return ""
}

// Annotate asks the judge about rec when it is chosen, and fills the llm_judge fields.
func (j *Judge) Annotate(ctx context.Context, q *dataset.Question, dbPath string, rec *record.Record) error {
	if !rec.Judged() {
		return nil
	}
	findings, err := j.goldFindings(ctx, q, dbPath)
	if err != nil {
		return fmt.Errorf("llm judge: audit the gold: %w", err)
	}
	if j.opt.On == OnDisputed && Disputed(rec, len(findings)) == "" {
		return nil
	}
	in, err := j.input(ctx, q, dbPath, rec, findings)
	if err != nil {
		return fmt.Errorf("llm judge: gather evidence: %w", err)
	}
	text, err := j.prompt.Render(in)
	if err != nil {
		return fmt.Errorf("llm judge: render prompt: %w", err)
	}
	req := j.request(text)
	key := collect.RequestKey(j.cfg.LLM.BaseURL, j.cfg.LLM.Model, req)
	cache, err := j.openCache()
	if err != nil {
		return fmt.Errorf("llm judge: %w", err)
	}
	var resp *collect.ChatResponse
	cached := false
	if cache != nil {
		resp, cached = cache.Lookup(key)
	}
	if !cached {
		if err := j.reserve(); err != nil {
			return err
		}
		resp, err = j.llm.Chat(ctx, req)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("%w: %v", ErrEndpoint, err)
		}
	}
	cost := j.cfg.Cost(resp.PromptTokens, resp.CompletionTokens)
	rec.LLMJudgePromptTokens, rec.LLMJudgeCompletionTokens = resp.PromptTokens, resp.CompletionTokens
	if j.cfg.Pricing != nil {
		rec.LLMJudgeCost = &cost
	}
	rec.LLMJudgeCached = cached
	var ans Answer
	if len(resp.Choices) == 0 {
		err = fmt.Errorf("%w: no choices", ErrUnparsable)
	} else {
		ans, err = ParseAnswer(resp.Choices[0])
	}
	j.count(cached, err == nil, resp, cost)
	if err != nil {
		rec.LLMJudgeError = err.Error()
		return nil // unjudged, counted; the answer is not cached, so a new run asks again
	}
	v := 0
	if ans.Correct {
		v = 1
	}
	rec.LLMJudgeVerdict, rec.LLMJudgeCategory, rec.LLMJudgeRationale = &v, ans.Category, ans.Rationale
	if !cached && cache != nil {
		if err := cache.Store(key, resp); err != nil {
			return fmt.Errorf("llm judge: %w", err)
		}
	}
	return nil
}

// request is the chat request for a rendered prompt, with the config's sampling.
func (j *Judge) request(text string) collect.ChatRequest {
	l := j.cfg.LLM
	return collect.ChatRequest{
		Messages:    []collect.Message{{Role: "system", Content: systemMessage}, {Role: "user", Content: text}},
		Temperature: l.Temperature, TopP: l.TopP, MaxTokens: l.MaxTokens, Seed: l.Seed,
	}
}

// reserve refuses a new call once the spend has reached the cap. Calls already in
// flight finish (at most one per worker past the cap), and their answers are cached.
func (j *Judge) reserve() error {
	if j.opt.MaxCost <= 0 {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.stats.Cost >= j.opt.MaxCost {
		return fmt.Errorf("%w ($%.4f spent of $%.4f); resume to continue with a new budget", ErrCostCap, j.stats.Cost, j.opt.MaxCost)
	}
	return nil
}

func (j *Judge) count(cached, parsed bool, resp *collect.ChatResponse, cost float64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	s := &j.stats
	s.Asked++
	if parsed {
		s.Judged++
	} else {
		s.Unjudged++
	}
	if cached {
		s.Cached++
		return
	}
	s.Calls++
	s.PromptTokens = record.AddCount(s.PromptTokens, resp.PromptTokens)
	s.CompletionTokens = record.AddCount(s.CompletionTokens, resp.CompletionTokens)
	s.Cost += cost
}
