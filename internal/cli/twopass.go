package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// The NL2SQL++ two-pass run (the Couchbase benchmark's pipeline): pass 1 asks every
// question and is judged against gold results from SQLite with the flexible comparison;
// pass 2 asks only the questions pass 1 got wrong, with a different prompt; the final
// records take pass 2's answer for those. Both passes are ordinary collect runs, so an
// interrupted two-pass run resumes where it stopped; the evals between them are redone
// on every run (they are cheap, and deterministic given the records).

// Files and directories of a two-pass run directory.
const (
	pass1Dir      = "pass1"
	pass2Dir      = "pass2"
	evalDir       = "eval"
	twoPassFile   = "two_pass.json"
	pass1System   = "pass1"
	finalSystem   = "final"
	evalMaxRows   = 1_000_000
	twoPassFormat = 1
)

// passTokens is one pass's LLM usage (its whole run directory, resumed records included).
type passTokens struct {
	Questions        int     `json:"questions"`
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	TotalTokens      int     `json:"total_tokens"`
	LLMCalls         int     `json:"llm_calls"`
	Cost             float64 `json:"estimated_cost_usd,omitempty"`
}

// twoPassReport is DIR/two_pass.json. Accuracies are percentages of the judged
// questions (those whose gold ran and whose database exists); correct means exact or
// column_flexible under compare flex, verdict correct under compare ex. The exact and
// column_flexible counts are the flex verdicts whatever compare is (flex is always judged).
type twoPassReport struct {
	Format              int        `json:"format"`
	Compare             string     `json:"compare"`
	Questions           int        `json:"questions"`
	FirstCorrect        int        `json:"first_pass_correct"`
	FirstExact          int        `json:"first_pass_exact"`
	FirstColumnFlexible int        `json:"first_pass_column_flexible"`
	FirstAccuracy       float64    `json:"first_pass_accuracy_pct"`
	Retried             int        `json:"retried"`
	Recovered           int        `json:"second_pass_recovered"`
	GainPoints          float64    `json:"gain_points"`
	FinalCorrect        int        `json:"final_correct"`
	FinalAccuracy       float64    `json:"final_accuracy_pct"`
	Pass1               passTokens `json:"pass1_tokens"`
	Pass2               passTokens `json:"pass2_tokens"`
	RetriedIDs          []string   `json:"retried_ids,omitempty"`
	RecoveredIDs        []string   `json:"recovered_ids,omitempty"`
	Records             string     `json:"records"`
}

// runTwoPass runs both passes into o.out, judges them, merges the records and reports.
func runTwoPass(ctx context.Context, e *env, o collectOpts, base collect.Options) error {
	cfg := base.Config
	compare := cfg.SecondPass.Compare
	out := o.out

	// A run directory from before modules.jsonl had its name holds the merged records as
	// records.jsonl; they are rewritten below, under the new name.
	if err := collect.AdoptLegacyModulesFile(out, filepath.Join(pass1Dir, collect.ManifestFile), e.stderr); err != nil {
		return err
	}

	// Pass 1: every question.
	sum1, err := runPass(ctx, e, o, base, 1, filepath.Join(out, pass1Dir), nil, nil)
	if err != nil {
		return err
	}
	recs1, err := collect.ReadRecords(filepath.Join(out, pass1Dir, collect.ModulesFile))
	if err != nil {
		return err
	}
	asked := questionKeys(recs1)

	// Judge pass 1 and pick the questions it got wrong.
	ev1, err := judgeRecords(ctx, e, o, cfg, pass1System, filepath.Join(out, pass1Dir, collect.ModulesFile), filepath.Join(out, pass1Dir, evalDir))
	if err != nil {
		return fmt.Errorf("judge pass 1: %w", err)
	}
	rep := &twoPassReport{Format: twoPassFormat, Compare: compare, Records: filepath.Join(out, collect.ModulesFile)}
	failed := map[string]bool{}
	previous := map[string]collect.Attempt{}
	for i := range ev1 {
		r := &ev1[i]
		k := collect.QuestionKey(r.DBID, r.QuestionID)
		if !asked[k] || !r.Judged() {
			continue
		}
		rep.Questions++
		switch r.FlexVerdict {
		case "exact":
			rep.FirstExact++
		case "column_flexible":
			rep.FirstColumnFlexible++
		}
		if passed(r, compare) {
			rep.FirstCorrect++
			continue
		}
		failed[k] = true
		rep.RetriedIDs = append(rep.RetriedIDs, r.QuestionID)
		previous[k] = collect.Attempt{SQL: r.PredSQL, Outcome: outcome(r)}
	}
	rep.Retried = len(failed)

	// Pass 2: the failures, with the second-pass prompt.
	var recs2 []predict.ModuleRecord
	var sum2 *collect.Summary
	if len(failed) > 0 {
		sel := func(q dataset.Question) bool { return failed[collect.QuestionKey(q.DBID, q.ID)] }
		if sum2, err = runPass(ctx, e, o, base, 2, filepath.Join(out, pass2Dir), sel, previous); err != nil {
			return err
		}
		if recs2, err = collect.ReadRecords(filepath.Join(out, pass2Dir, collect.ModulesFile)); err != nil {
			return err
		}
	}

	// The final records, judged.
	if err := collect.WriteRecordsFile(rep.Records, collect.MergePasses(recs1, recs2, failed)); err != nil {
		return err
	}
	evF, err := judgeRecords(ctx, e, o, cfg, finalSystem, rep.Records, filepath.Join(out, evalDir))
	if err != nil {
		return fmt.Errorf("judge the final records: %w", err)
	}
	for i := range evF {
		r := &evF[i]
		k := collect.QuestionKey(r.DBID, r.QuestionID)
		if !asked[k] || !r.Judged() || !passed(r, compare) {
			continue
		}
		rep.FinalCorrect++
		if failed[k] {
			rep.Recovered++
			rep.RecoveredIDs = append(rep.RecoveredIDs, r.QuestionID)
		}
	}
	rep.FirstAccuracy = pctOf(rep.FirstCorrect, rep.Questions)
	rep.FinalAccuracy = pctOf(rep.FinalCorrect, rep.Questions)
	rep.GainPoints = math.Round((rep.FinalAccuracy-rep.FirstAccuracy)*100) / 100
	rep.Pass1 = tokensOf(sum1, cfg)
	if sum2 != nil {
		rep.Pass2 = tokensOf(sum2, cfg)
	}
	if err := writeJSONFile(filepath.Join(out, twoPassFile), rep); err != nil {
		return err
	}
	if o.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printTwoPass(e.stdout, rep, out)
	return nil
}

// runPass runs one pass of collect into dir and prints its summary line block.
func runPass(ctx context.Context, e *env, o collectOpts, base collect.Options, pass int, dir string,
	sel func(dataset.Question) bool, previous map[string]collect.Attempt) (*collect.Summary, error) {
	bar := newCollectBar(e.stderr, base.Config.Pricing != nil)
	opt := base
	opt.OutDir, opt.Progress, opt.Pass, opt.Select, opt.Previous = dir, bar.update, pass, sel, previous
	sum, err := collect.Run(ctx, opt)
	bar.finish()
	if sum != nil && !o.json {
		fmt.Fprintf(e.stdout, "pass %d:\n", pass)
		printCollectSummary(e.stdout, sum)
	}
	if err != nil {
		return nil, fmt.Errorf("pass %d: %w", pass, err)
	}
	if sum.Failed > 0 {
		return nil, fmt.Errorf("pass %d: %d question(s) failed (see above); rerun the same command to retry them", pass, sum.Failed)
	}
	return sum, nil
}

// judgeRecords judges a records file with the flexible comparison (gold SQL on SQLite,
// predictions where --engine says) into evalOut, quietly, and returns the judged records.
// The per-query timeout is the pipeline's own (query_revision.exec_timeout, default 30s).
func judgeRecords(ctx context.Context, e *env, o collectOpts, cfg0 *collect.Config, system, records, evalOut string) ([]record.Record, error) {
	// A previous run's eval directory is replaced: evals are redone from the records.
	if err := os.RemoveAll(evalOut); err != nil {
		return nil, fmt.Errorf("clear %s: %w", evalOut, err)
	}
	cfg := evalConfig{
		DatasetSpec: o.datasetSpec, DBRoot: o.dbRoot, Tables: o.tables,
		Preds: []string{system + "=" + records}, Out: evalOut,
		Timeout: cfg0.Pipeline.QueryRevision.ExecTimeout.Duration, Workers: runtime.NumCPU(), MaxRows: evalMaxRows,
		AllowMissing: true, // --limit: questions not asked are judged as errors and left out below
		Engines:      o.engines, Flex: true, Quiet: true,
	}
	if _, err := evaluate(ctx, e, cfg); err != nil {
		return nil, err
	}
	path := filepath.Join(evalOut, system, "records.jsonl")
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read judged records: %w", err)
	}
	defer f.Close()
	recs, _, err := record.ReadJSONL(f)
	if err != nil && !errors.Is(err, record.ErrTornLine) {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return recs, nil
}

// passed says whether a judged record counts as correct under compare.
func passed(r *record.Record, compare string) bool {
	if compare == collect.CompareEX {
		return r.Verdict == record.Correct
	}
	return r.Flex != nil && *r.Flex == 1
}

// outcome says in words what became of a first-pass prediction, for the second-pass
// prompt: the error, or how many rows it returned. It names nothing of the gold answer
// beyond "differ" (no gold SQL, no gold rows, no column counts).
func outcome(r *record.Record) string {
	switch {
	case r.PredSQL == "":
		return "no query could be read from the answer."
	case r.Verdict == record.Error:
		msg := r.ErrorMessage
		if msg == "" {
			msg = string(r.ErrorCategory)
		}
		return "executing it failed with the error: " + msg
	case r.PredRows == 1:
		return "it ran and returned 1 row, which differs from the expected answer."
	}
	return fmt.Sprintf("it ran and returned %d rows, which differ from the expected answer.", r.PredRows)
}

func questionKeys(recs []predict.ModuleRecord) map[string]bool {
	m := map[string]bool{}
	for _, r := range recs {
		m[collect.QuestionKey(r.DBID, string(r.QuestionID))] = true
	}
	return m
}

func pctOf(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return math.Round(float64(n)*10000/float64(d)) / 100
}

func tokensOf(s *collect.Summary, cfg *collect.Config) passTokens {
	t := passTokens{Questions: s.Questions, PromptTokens: s.PromptTokens, CompletionTokens: s.CompletionTokens, TotalTokens: s.TotalTokens}
	for _, m := range s.Modules {
		t.LLMCalls += m.LLMCalls
	}
	if cfg.Pricing != nil {
		t.Cost = s.Cost
	}
	return t
}

func printTwoPass(w io.Writer, r *twoPassReport, out string) {
	fmt.Fprintf(w, "\ntwo-pass run (compare %s) on %d judged questions\n", r.Compare, r.Questions)
	fmt.Fprintf(w, "  %-7s %-34s %10s\n", "", "", "tokens")
	fmt.Fprintf(w, "  %-7s %-34s %10d\n", "pass 1", fmt.Sprintf("correct %d (%.2f%%)", r.FirstCorrect, r.FirstAccuracy), r.Pass1.TotalTokens)
	fmt.Fprintf(w, "  %-7s %-34s %10d\n", "pass 2", fmt.Sprintf("retried %d, recovered %d", r.Retried, r.Recovered), r.Pass2.TotalTokens)
	fmt.Fprintf(w, "  %-7s %-34s %10d\n", "final", fmt.Sprintf("correct %d (%.2f%%, %+.2f points)", r.FinalCorrect, r.FinalAccuracy, r.GainPoints), r.Pass1.TotalTokens+r.Pass2.TotalTokens)
	fmt.Fprintf(w, "records: %s; judged: %s; report: %s\n", r.Records, filepath.Join(out, evalDir), filepath.Join(out, twoPassFile))
}
