package collect

import (
	"context"
	"fmt"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
)

// usageAcc adds up one module's LLM usage.
type usageAcc struct {
	prompt, completion, total, calls, cached int
	latency                                  int64         // recorded LLM latency, cached calls included
	inCalls                                  time.Duration // time this run actually spent waiting for calls
}

func (u *usageAcc) add(r *ChatResponse) {
	u.prompt += r.PromptTokens
	u.completion += r.CompletionTokens
	u.total += r.TotalTokens
	u.calls++
	u.latency += r.LatencyMS
	if r.Cached {
		u.cached++
	}
}

// fill writes the usage into rec. Latency is the recorded latency of the module's LLM
// calls (a cached call replays its original latency, so a rerun writes the same record)
// plus the module's own work since start (schema reading, SQL execution).
func (u *usageAcc) fill(rec *predict.ModuleRecord, start time.Time) {
	local := max(time.Since(start)-u.inCalls, 0)
	u.record(rec, u.latency+local.Milliseconds())
}

// record writes the usage into rec with the given latency. Every count is known (a module
// that called no LLM used 0 tokens), so every usage field is written; token_cost repeats
// total_tokens and call_llm_times repeats llm_calls, for readers that know only those names.
func (u *usageAcc) record(rec *predict.ModuleRecord, latencyMS int64) {
	rec.PromptTokens, rec.CompletionTokens = predict.CountOf(u.prompt), predict.CountOf(u.completion)
	rec.TotalTokens, rec.TokenCost = predict.CountOf(u.total), predict.CountOf(u.total)
	rec.LLMCalls, rec.CallLLMTimes = predict.CountOf(u.calls), predict.CountOf(u.calls)
	rec.CachedCalls = u.cached
	rec.LatencyMS = predict.CountOf(int(latencyMS))
}

// chat asks the model for n answers to prompt at temperature temp (nil: the config's). A
// server that returns fewer choices than asked (Ollama and llama.cpp ignore n) is asked
// again for the rest; each request counts as one LLM call.
func (r *runner) chat(ctx context.Context, u *usageAcc, prompt string, temp *float64, n int) ([]string, error) {
	l := r.cfg.LLM
	if temp == nil {
		temp = l.Temperature
	}
	var out []string
	for part := 0; len(out) < n && part < n; part++ {
		req := ChatRequest{
			Messages:    []Message{{Role: "user", Content: prompt}},
			Temperature: temp, TopP: l.TopP, MaxTokens: l.MaxTokens, Seed: l.Seed,
			N: n - len(out), Part: part,
		}
		t0 := time.Now()
		resp, err := r.llm.Chat(ctx, req)
		u.inCalls += time.Since(t0)
		if err != nil {
			return nil, err
		}
		u.add(resp)
		out = append(out, resp.Choices...)
	}
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}

// answer runs the pipeline on one question and returns its module records.
func (r *runner) answer(ctx context.Context, q dataset.Question, db *dbInfo) ([]predict.ModuleRecord, error) {
	pl := r.cfg.Pipeline
	base := predict.ModuleRecord{
		ModuleOutput:  predict.ModuleOutput{QuestionID: predict.QuestionID(q.ID), DBID: q.DBID, Question: q.Text},
		ModuleDetails: predict.ModuleDetails{Pass: r.pass},
	}
	data := PromptData{Dialect: "SQLite", Evidence: q.Evidence, Question: q.Text}
	if r.cfg.SQLPP() {
		data.Dialect = "SQL++"
	}
	genPrompt := promptGenerate
	if r.pass == 2 {
		genPrompt = promptSecond
		if a, ok := r.previous[questionKey(q.DBID, q.ID)]; ok {
			data.PreviousSQL, data.PreviousOutcome = a.SQL, a.Outcome
		}
	}

	// Schema selection.
	var su usageAcc
	start := time.Now()
	sel, src, err := r.selectSchema(ctx, &su, data, db)
	if err != nil {
		return nil, fmt.Errorf("schema selection: %w", err)
	}
	ss := base
	ss.NodeType, ss.Strategy, ss.ExtractedSchema, ss.SchemaSource = predict.NodeSchemaSelection, pl.SchemaSelection.Strategy, sel, src
	su.fill(&ss, start)
	recs := []predict.ModuleRecord{ss}

	// Candidate generation, over the selected schema (all of it for "full").
	if pl.SchemaSelection.Strategy == SchemaFull {
		data.Schema = db.renderSchema(nil)
	} else {
		data.Schema = db.renderSchema(sel)
	}
	var gu usageAcc
	start = time.Now()
	prompt, err := r.prompts.render(genPrompt, data)
	if err != nil {
		return nil, err
	}
	cg := pl.CandidateGeneration
	texts, err := r.chat(ctx, &gu, prompt, cg.Temperature, cg.N)
	if err != nil {
		return nil, fmt.Errorf("candidate generation: %w", err)
	}
	cands := make([]string, len(texts))
	for i, t := range texts {
		cands[i] = extractSQL(t)
	}
	gen := base
	gen.NodeType, gen.Strategy = predict.NodeCandidateGeneration, cg.Strategy
	if len(cands) == 1 {
		gen.SQL = predict.OneSQL(cands[0])
	} else {
		gen.SQL = predict.SQLList(cands)
	}
	gu.fill(&gen, start)
	recs = append(recs, gen)

	// Query revision.
	if pl.QueryRevision.Strategy == ReviseNone {
		return recs, nil
	}
	data.PreviousSQL, data.PreviousOutcome = "", ""
	var ru usageAcc
	start = time.Now()
	rev := base
	rev.NodeType, rev.Strategy = predict.NodeQueryRevision, pl.QueryRevision.Strategy
	if err := r.revise(ctx, &ru, &rev, data, db, cands); err != nil {
		return nil, fmt.Errorf("query revision: %w", err)
	}
	ru.fill(&rev, start)
	return append(recs, rev), nil
}
