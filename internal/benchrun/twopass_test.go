package benchrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// scriptedPasses is a two-pass run without an LLM or a database: Collect writes one
// module record per selected question, Judge gives the verdicts of the script.
type scriptedPasses struct {
	ds    *dataset.Dataset
	pass1 map[string]record.Verdict // question id -> pass 1's verdict
	final map[string]record.Verdict // question id -> the final records' verdict
	opts  []collect.Options
	cfgs  []Config
	dirs  []string
}

func (s *scriptedPasses) Collect(_ context.Context, opt collect.Options) (*collect.Summary, error) {
	s.opts = append(s.opts, opt)
	var recs []predict.ModuleRecord
	for _, q := range s.ds.Questions {
		if opt.Select == nil || opt.Select(q) {
			recs = append(recs, predict.ModuleRecord{ModuleOutput: predict.ModuleOutput{NodeType: predict.NodeCandidateGeneration,
				QuestionID: predict.QuestionID(q.ID), DBID: q.DBID, SQL: predict.OneSQL(fmt.Sprintf("SELECT %d", opt.Pass))}})
		}
	}
	if err := os.MkdirAll(opt.OutDir, 0o755); err != nil {
		return nil, err
	}
	if err := collect.WriteRecordsFile(filepath.Join(opt.OutDir, collect.ModulesFile), recs); err != nil {
		return nil, err
	}
	return &collect.Summary{Questions: len(recs), TotalTokens: 10 * len(recs), Modules: map[string]*collect.ModuleTotals{predict.NodeCandidateGeneration: {LLMCalls: len(recs)}}}, nil
}

func (s *scriptedPasses) Judge(_ context.Context, cfg Config, dir string) (*Result, error) {
	s.cfgs, s.dirs = append(s.cfgs, cfg), append(s.dirs, dir)
	verdicts := s.pass1
	if strings.HasPrefix(cfg.Preds[0], finalSystem+"=") {
		verdicts = s.final
	}
	var recs []record.Record
	for i, q := range s.ds.Questions {
		v := verdicts[q.ID]
		r := record.Record{Index: i, QuestionID: q.ID, DBID: q.DBID, Verdict: v, PredSQL: "SELECT 1", PredRows: 2}
		if v == record.Error {
			r.ErrorMessage = "no such table: t"
		}
		recs = append(recs, r)
	}
	return &Result{Systems: []SystemResult{{Name: "x", Records: recs}}}, nil
}

func TestTwoPass(t *testing.T) {
	ds := &dataset.Dataset{Questions: []dataset.Question{
		{Index: 0, ID: "q1", DBID: "a"}, {Index: 1, ID: "q2", DBID: "a"}, {Index: 2, ID: "q3", DBID: "b"}, {Index: 3, ID: "q4", DBID: "b"},
	}}
	ps := &scriptedPasses{ds: ds,
		pass1: map[string]record.Verdict{"q1": record.Correct, "q2": record.Incorrect, "q3": record.Error, "q4": record.Skipped},
		final: map[string]record.Verdict{"q1": record.Correct, "q2": record.Correct, "q3": record.Error, "q4": record.Skipped},
	}
	cfg := &collect.Config{SecondPass: &collect.SecondPassConfig{Enabled: true, Compare: collect.CompareEX}}
	cfg.Pipeline.QueryRevision.ExecTimeout.Duration = 7 * time.Second
	out := t.TempDir()
	eval := Config{DatasetSpec: "jsonl:questions.jsonl", Engine: "sqlite"}
	rep, err := twoPass(context.Background(), out, collect.Options{Config: cfg, Dataset: ds}, eval, passRunner{collect: ps.Collect, judge: ps.Judge}, finalSystem)
	if err != nil {
		t.Fatal(err)
	}
	want := TwoPassReport{Format: TwoPassFormat, Compare: collect.CompareEX, Questions: 3, FirstCorrect: 1, FirstAccuracy: 33.33,
		Retried: 2, Recovered: 1, GainPoints: 33.34, FinalCorrect: 2, FinalAccuracy: 66.67, Records: filepath.Join(out, collect.ModulesFile)}
	if rep.Format != want.Format || rep.Compare != want.Compare || rep.Questions != want.Questions || rep.FirstCorrect != want.FirstCorrect ||
		rep.FirstAccuracy != want.FirstAccuracy || rep.Retried != want.Retried || rep.Recovered != want.Recovered || rep.GainPoints != want.GainPoints ||
		rep.FinalCorrect != want.FinalCorrect || rep.FinalAccuracy != want.FinalAccuracy || rep.Records != want.Records {
		t.Errorf("report %+v\nwant   %+v", *rep, want)
	}
	if strings.Join(rep.RetriedIDs, ",") != "q2,q3" || strings.Join(rep.RecoveredIDs, ",") != "q2" {
		t.Errorf("retried %q, recovered %q", rep.RetriedIDs, rep.RecoveredIDs)
	}
	if rep.Pass1.Questions != 4 || rep.Pass1.TotalTokens != 40 || rep.Pass1.LLMCalls != 4 || rep.Pass2.Questions != 2 || rep.Pass2.LLMCalls != 2 {
		t.Errorf("tokens %+v %+v", rep.Pass1, rep.Pass2)
	}

	// Pass 2 asked only the failures, told what became of the first attempt.
	if len(ps.opts) != 2 || ps.opts[0].Pass != 1 || ps.opts[1].Pass != 2 || ps.opts[0].OutDir != filepath.Join(out, Pass1Dir) || ps.opts[1].OutDir != filepath.Join(out, Pass2Dir) {
		t.Fatalf("collect runs %+v", ps.opts)
	}
	var asked []string
	for _, q := range ds.Questions {
		if ps.opts[1].Select(q) {
			asked = append(asked, q.ID)
		}
	}
	if strings.Join(asked, ",") != "q2,q3" {
		t.Errorf("pass 2 asked %q", asked)
	}
	prev := ps.opts[1].Previous
	if len(prev) != 2 || prev[collect.QuestionKey("a", "q2")].Outcome != "it ran and returned 2 rows, which differ from the expected answer." ||
		prev[collect.QuestionKey("b", "q3")].Outcome != "executing it failed with the error: no such table: t" {
		t.Errorf("previous attempts %+v", prev)
	}

	// Both judged runs: flexible comparison, questions not asked allowed, the pipeline's
	// timeout, into the layout's directories; the dataset and engines as given.
	if len(ps.cfgs) != 2 || ps.dirs[0] != filepath.Join(out, Pass1Dir, EvalDir) || ps.dirs[1] != filepath.Join(out, EvalDir) {
		t.Fatalf("judged into %q", ps.dirs)
	}
	for i, c := range ps.cfgs {
		if !c.Flex || !c.AllowMissing || c.Timeout != 7*time.Second || c.MaxRows != engine.DefaultMaxRows || c.DatasetSpec != eval.DatasetSpec || c.Engine != "sqlite" || len(c.Preds) != 1 {
			t.Errorf("judged run %d: %+v", i, c)
		}
	}
	if ps.cfgs[0].Preds[0] != pass1System+"="+filepath.Join(out, Pass1Dir, collect.ModulesFile) || ps.cfgs[1].Preds[0] != finalSystem+"="+rep.Records {
		t.Errorf("judged %q and %q", ps.cfgs[0].Preds[0], ps.cfgs[1].Preds[0])
	}

	// The final records take pass 2's answer for the retried questions.
	merged, err := collect.ReadRecords(rep.Records)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range merged {
		want := "SELECT 1"
		if r.QuestionID == "q2" || r.QuestionID == "q3" {
			want = "SELECT 2"
		}
		if q := r.SQL.Queries; len(q) != 1 || q[0] != want {
			t.Errorf("final %s: %v, want %s", r.QuestionID, r.SQL.Queries, want)
		}
	}
}

func TestPassedAndOutcome(t *testing.T) {
	one, zero := 1, 0
	tests := []struct {
		r          record.Record
		ex, flex   bool
		outcomeHas string
	}{
		{record.Record{Verdict: record.Correct, FlexMatch: record.FlexMatch{Flex: &one}, PredSQL: "x", PredRows: 1}, true, true, "returned 1 row,"},
		{record.Record{Verdict: record.Correct, FlexMatch: record.FlexMatch{Flex: &zero}, PredSQL: "x", PredRows: 3}, true, false, "returned 3 rows,"},
		{record.Record{Verdict: record.Incorrect, FlexMatch: record.FlexMatch{Flex: &one}, PredSQL: "x"}, false, true, "returned 0 rows,"},
		{record.Record{Verdict: record.Error, PredSQL: "x", ErrorCategory: record.ErrorCategory("timeout")}, false, false, "the error: timeout"},
		{record.Record{Verdict: record.Error}, false, false, "no query could be read"},
	}
	for i, tt := range tests {
		if got := passed(&tt.r, collect.CompareEX); got != tt.ex {
			t.Errorf("%d: passed under ex %v", i, got)
		}
		if got := passed(&tt.r, collect.CompareFlex); got != tt.flex {
			t.Errorf("%d: passed under flex %v", i, got)
		}
		if got := outcome(&tt.r); !strings.Contains(got, tt.outcomeHas) {
			t.Errorf("%d: outcome %q, want %q in it", i, got, tt.outcomeHas)
		}
	}
	if pctOf(1, 3) != 33.33 || pctOf(2, 3) != 66.67 || pctOf(1, 0) != 0 {
		t.Errorf("pctOf: %v %v %v", pctOf(1, 3), pctOf(2, 3), pctOf(1, 0))
	}
}
