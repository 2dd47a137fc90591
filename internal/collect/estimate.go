package collect

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// Estimate is what a collect run would ask for before it runs (matrix --dry-run). Calls
// come as a range: revision asks again only when execution fails, which is not known
// before the run. Tokens are estimated from the prompts the run would render.
type Estimate struct {
	Questions  int `json:"questions"`
	Recorded   int `json:"recorded"`    // already in modules.jsonl: asked again for nothing
	NoDatabase int `json:"no_database"` // database missing: recorded without a call
	ToAsk      int `json:"to_ask"`
	// CallsMin and CallsMax bound the LLM calls of the questions to ask.
	CallsMin int `json:"llm_calls_min"`
	CallsMax int `json:"llm_calls_max"`
	// PromptTokensMin/Max: the rendered prompt of each call (over the full schema), at
	// EstimateBytesPerToken bytes per token; completion tokens at CompletionTokensPerCall.
	PromptTokensMin     int     `json:"prompt_tokens_min"`
	PromptTokensMax     int     `json:"prompt_tokens_max"`
	CompletionTokensMin int     `json:"completion_tokens_min"`
	CompletionTokensMax int     `json:"completion_tokens_max"`
	CostMin             float64 `json:"cost_usd_min"`
	CostMax             float64 `json:"cost_usd_max"`
	Priced              bool    `json:"priced"`
	// CachedAnswers is how many LLM answers cache.jsonl already holds (free on a rerun).
	CachedAnswers int `json:"cached_answers"`
}

// EstimateBytesPerToken is the rule of thumb (about four bytes of English or SQL per
// token for GPT-style tokenizers) that turns a rendered prompt into a token estimate.
const EstimateBytesPerToken = 4

// CompletionTokensPerCall is the completion length assumed per answer (a fenced query and
// a line of text) when llm.max_tokens does not bound it lower.
const CompletionTokensPerCall = 100

// CallsPerQuestion bounds the LLM calls the pipeline makes for one question: schema
// selection by LLM or preliminary SQL asks once; generation asks once (n choices in one
// request); execution-guided revision and retry_failed ask once per round, only when the
// query fails or (execution_guided) returns nothing.
func (c *Config) CallsPerQuestion() (lo, hi int) {
	pl := c.Pipeline
	if pl.SchemaSelection.Strategy != SchemaFull {
		lo, hi = lo+1, hi+1
	}
	lo, hi = lo+1, hi+1
	switch pl.QueryRevision.Strategy {
	case ReviseExecution, ReviseRetryFailed:
		hi += pl.QueryRevision.Rounds
	}
	return lo, hi
}

// EstimateRun estimates a collect run of opt (Config, Dataset, OutDir, Select, Limit; OutDir "": nothing on disk) without
// calling the LLM or writing anything: the questions OutDir/modules.jsonl already holds
// cost nothing; every other question's prompt is rendered over its database's full schema.
func EstimateRun(ctx context.Context, opt Options) (*Estimate, error) {
	cfg, ds := opt.Config, opt.Dataset
	if cfg == nil || ds == nil {
		return nil, fmt.Errorf("estimate: %w: no config or dataset", ErrBadConfig)
	}
	if cfg.SQLPP() || cfg.TwoPass() {
		return nil, fmt.Errorf("estimate: %w: sqlpp and two-pass pipelines are not estimated", ErrBadConfig)
	}
	ps, err := loadPrompts(cfg)
	if err != nil {
		return nil, err
	}
	est := &Estimate{Priced: cfg.Pricing != nil}
	done := map[string]bool{}
	if opt.OutDir != "" { // "": a fresh run, nothing on disk counts
		if done, err = recordedQuestions(filepath.Join(opt.OutDir, ModulesFile), cfg.nodeTypes()); err != nil {
			return nil, err
		}
		if est.CachedAnswers, err = countCacheLines(filepath.Join(opt.OutDir, CacheFile)); err != nil {
			return nil, err
		}
	}
	sqlite := engine.NewSQLite()
	defer sqlite.Close()
	dbs := dbCache{dbs: map[string]*dbEntry{}}
	lo, hi := cfg.CallsPerQuestion()
	completion := CompletionTokensPerCall
	if m := cfg.LLM.MaxTokens; m > 0 && m < completion {
		completion = m
	}
	for k, q := range opt.questions(ds) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		est.Questions++
		if done[k] {
			est.Recorded++
			continue
		}
		path, ok := ds.DBPath(q.DBID)
		if !ok {
			est.NoDatabase++
			continue
		}
		db, err := dbs.get(path, func() (*dbInfo, error) { return loadDB(ctx, sqlite, path, *cfg.Pipeline.SampleValues) })
		if err != nil {
			return nil, fmt.Errorf("estimate: question %s: %w", q.ID, err)
		}
		p, err := ps.render(promptGenerate, PromptData{Dialect: "SQLite", Evidence: q.Evidence, Question: q.Text, Schema: db.renderSchema(nil)})
		if err != nil {
			return nil, err
		}
		tokens := (len(p) + EstimateBytesPerToken - 1) / EstimateBytesPerToken
		est.ToAsk++
		est.CallsMin += lo
		est.CallsMax += hi
		est.PromptTokensMin += lo * tokens
		est.PromptTokensMax += hi * tokens
		extra := cfg.Pipeline.CandidateGeneration.N - 1 // generation's one call answers n times
		est.CompletionTokensMin += (lo + extra) * completion
		est.CompletionTokensMax += (hi + extra) * completion
	}
	est.CostMin = cfg.Cost(est.PromptTokensMin, est.CompletionTokensMin)
	est.CostMax = cfg.Cost(est.PromptTokensMax, est.CompletionTokensMax)
	return est, nil
}

// recordedQuestions reads the complete question blocks of a modules.jsonl read-only (a
// dry run never repairs a file); a missing file holds none.
func recordedQuestions(path string, want []string) (map[string]bool, error) {
	f, _, err := safefile.Open(path, maxRecordsFile)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read records %s: %w", path, err)
	}
	defer f.Close()
	done, _, err := parseDone(path, f, want)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(done))
	for k := range done {
		out[k] = true
	}
	return out, nil
}

// countCacheLines counts the complete lines of a cache file read-only; a missing file has none.
func countCacheLines(path string) (int, error) {
	f, _, err := safefile.Open(path, 1<<40)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read cache %s: %w", path, err)
	}
	defer f.Close()
	n := 0
	_, err = safefile.ReadLines(f, 0, func(safefile.Line) error { n++; return nil })
	if err != nil && !errors.Is(err, safefile.ErrTornLine) && !errors.Is(err, safefile.ErrLineTooLong) {
		return 0, fmt.Errorf("read cache %s: %w", path, err)
	}
	return n, nil
}
