package benchrun

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"runtime"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// The NL2SQL++ two-pass run (the Couchbase benchmark's pipeline): pass 1 asks every
// question and is judged against gold results from SQLite with the flexible comparison;
// pass 2 asks only the questions pass 1 got wrong, with a different prompt; the final
// records take pass 2's answer for those. Both passes are ordinary collect runs, so an
// interrupted two-pass run resumes where it stopped; the evals between them are redone
// on every run (they are cheap, and deterministic given the records).

// Directories of a two-pass run directory, and its judged systems.
const (
	Pass1Dir    = "pass1" // pass 1's collect run; its judged run in Pass1Dir/EvalDir
	Pass2Dir    = "pass2" // pass 2's collect run
	EvalDir     = "eval"  // the final records judged
	pass1System = "pass1"
	finalSystem = "final"
	// TwoPassFormat is TwoPassReport.Format.
	TwoPassFormat = 1
)

// PassObserver hears a two-pass run: the cli draws each collect pass's progress and
// prints its summary, and shows the judged passes' phases and warnings (Observer).
type PassObserver interface {
	Observer
	// CollectPass starts collect pass n (1 or 2; priced: the config has pricing). It
	// returns the pass's progress function and a function called when the pass ends,
	// with its summary (nil when it failed before one).
	CollectPass(n int, priced bool) (progress func(collect.Progress), done func(*collect.Summary))
}

// passRunner runs a two-pass run's steps: collect.Run and EvalInto, or a test's script.
type passRunner struct {
	obs     PassObserver
	collect func(ctx context.Context, opt collect.Options) (*collect.Summary, error)
	judge   func(ctx context.Context, cfg Config, dir string) (*Result, error)
}

// realPasses collects with collect.Run and judges with EvalInto, obs hearing both.
func realPasses(obs PassObserver) passRunner {
	return passRunner{obs: obs,
		collect: func(ctx context.Context, opt collect.Options) (*collect.Summary, error) {
			progress, done := obs.CollectPass(opt.Pass, opt.Config.Pricing != nil)
			opt.Progress = progress
			sum, err := collect.Run(ctx, opt)
			done(sum)
			return sum, err
		},
		// A judged pass replaces the previous one once complete: evals are redone from
		// the records.
		judge: func(ctx context.Context, cfg Config, dir string) (*Result, error) {
			res, _, err := EvalInto(ctx, cfg, Output{Dir: dir, Force: true,
				Rerun: func(string) string { return "the same collect command (the judged run is redone from the records)" }}, obs)
			return res, err
		},
	}
}

// PassTokens is one pass's LLM usage (its whole run directory, resumed records included).
type PassTokens struct {
	Questions        int     `json:"questions"`
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	TotalTokens      int     `json:"total_tokens"`
	LLMCalls         int     `json:"llm_calls"`
	Cost             float64 `json:"estimated_cost_usd,omitempty"`
}

// TwoPassReport is DIR/two_pass.json. Accuracies are percentages of the judged
// questions (those whose gold ran and whose database exists); correct means exact or
// column_flexible under compare flex, verdict correct under compare ex. The exact and
// column_flexible counts are the flex verdicts whatever compare is (flex is always judged).
type TwoPassReport struct {
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
	Pass1               PassTokens `json:"pass1_tokens"`
	Pass2               PassTokens `json:"pass2_tokens"`
	RetriedIDs          []string   `json:"retried_ids,omitempty"`
	RecoveredIDs        []string   `json:"recovered_ids,omitempty"`
	Records             string     `json:"records"`
}

// TwoPass runs both passes of base.Config's two-pass pipeline into out (collect writes
// its own resumable files there), judges them (EvalInto) with judging's settings from
// eval (dataset, engines; TwoPass sets the rest), merges the records into
// out/modules.jsonl and reports, in out/two_pass.json (TwoPassFile); obs hears every
// step.
func TwoPass(ctx context.Context, out string, base collect.Options, eval Config, obs PassObserver) (*TwoPassReport, error) {
	rep, err := twoPass(ctx, out, base, eval, realPasses(obs), finalSystem)
	if err != nil {
		return nil, err
	}
	return rep, rundir.WriteJSON(filepath.Join(out, TwoPassFile), rep)
}

// TwoPassFile is a two-pass run's report, DIR/two_pass.json.
const TwoPassFile = "two_pass.json"

// final names the final records' system in their judged run (a matrix cell's name).
func twoPass(ctx context.Context, out string, base collect.Options, eval Config, ps passRunner, final string) (*TwoPassReport, error) {
	cfg := base.Config
	compare := cfg.SecondPass.Compare

	// Pass 1: every question.
	sum1, err := runPass(ctx, ps, base, 1, filepath.Join(out, Pass1Dir), nil, nil)
	if err != nil {
		return nil, err
	}
	recs1, err := collect.ReadRecords(filepath.Join(out, Pass1Dir, collect.ModulesFile))
	if err != nil {
		return nil, err
	}
	asked := questionKeys(recs1)

	// Judge pass 1 and pick the questions it got wrong.
	ev1, err := judgeRecords(ctx, ps, eval, cfg, pass1System, filepath.Join(out, Pass1Dir, collect.ModulesFile), filepath.Join(out, Pass1Dir, EvalDir))
	if err != nil {
		return nil, fmt.Errorf("judge pass 1: %w", err)
	}
	rep := &TwoPassReport{Format: TwoPassFormat, Compare: compare, Records: filepath.Join(out, collect.ModulesFile)}
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
		if sum2, err = runPass(ctx, ps, base, 2, filepath.Join(out, Pass2Dir), sel, previous); err != nil {
			return nil, err
		}
		if recs2, err = collect.ReadRecords(filepath.Join(out, Pass2Dir, collect.ModulesFile)); err != nil {
			return nil, err
		}
	}

	// The final records, judged.
	if err := collect.WriteRecordsFile(rep.Records, collect.MergePasses(recs1, recs2, failed)); err != nil {
		return nil, err
	}
	evF, err := judgeRecords(ctx, ps, eval, cfg, final, rep.Records, filepath.Join(out, EvalDir))
	if err != nil {
		return nil, fmt.Errorf("judge the final records: %w", err)
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
	return rep, nil
}

// runPass runs one pass of collect into dir.
func runPass(ctx context.Context, ps passRunner, base collect.Options, pass int, dir string,
	sel func(dataset.Question) bool, previous map[string]collect.Attempt) (*collect.Summary, error) {
	opt := base
	opt.OutDir, opt.Pass, opt.Select, opt.Previous = dir, pass, sel, previous
	sum, err := ps.collect(ctx, opt)
	if err != nil {
		return nil, fmt.Errorf("pass %d: %w", pass, err)
	}
	if sum.Failed > 0 {
		return nil, fmt.Errorf("pass %d: %d question(s) failed (see above); rerun the same command to retry them", pass, sum.Failed)
	}
	return sum, nil
}

// judgeRecords judges a records file with the flexible comparison (gold SQL on SQLite,
// predictions where eval's Server says) into evalOut and returns the judged records.
// The per-query timeout is the pipeline's own (query_revision.exec_timeout, default 30s).
func judgeRecords(ctx context.Context, ps passRunner, eval Config, cfg0 *collect.Config, system, records, evalOut string) ([]record.Record, error) {
	cfg := eval
	cfg.Preds = []string{system + "=" + records}
	cfg.Timeout, cfg.Workers, cfg.MaxRows = cfg0.Pipeline.QueryRevision.ExecTimeout.Duration, runtime.NumCPU(), engine.DefaultMaxRows
	cfg.AllowMissing = true // --limit: questions not asked are judged as errors and left out
	cfg.Flex = true
	res, err := ps.judge(ctx, cfg, evalOut)
	if err != nil {
		return nil, err
	}
	return res.Systems[0].Records, nil
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

func tokensOf(s *collect.Summary, cfg *collect.Config) PassTokens {
	t := PassTokens{Questions: s.Questions, PromptTokens: s.PromptTokens, CompletionTokens: s.CompletionTokens, TotalTokens: s.TotalTokens}
	for _, m := range s.Modules {
		t.LLMCalls += m.LLMCalls
	}
	if cfg.Pricing != nil {
		t.Cost = s.Cost
	}
	return t
}
