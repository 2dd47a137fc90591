package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// readSummary reads a run directory's summary.json.
func readSummary(tb testing.TB, dir string) *rundir.Summary {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var s rundir.Summary
	if err := json.Unmarshal(b, &s); err != nil {
		tb.Fatal(err)
	}
	return &s
}

func readModuleRecords(tb testing.TB, path string) []record.Record {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	recs, _, err := record.ReadJSONL(f)
	if err != nil {
		tb.Fatal(err)
	}
	return recs
}

// TestEvalModulesDemo judges the demo with --pass-k and --pricing and checks that every
// module section reaches summary.json, the records and the terminal table.
func TestEvalModulesDemo(t *testing.T) {
	t.Parallel()
	cache, out := t.TempDir(), filepath.Join(t.TempDir(), "run")
	files, err := demo.Materialize(t.Context(), cache)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"eval", "--dataset", "jsonl:" + files.Questions, "--db-root", files.DBRoot, "--out", out,
		"--details", "--timeout", testTimeout.String(), "--max-rows", "10000", "--pass-k", "3,1", "--pricing", filepath.Join(testutil.RepoRoot(t), "docs", "pricing.example.yaml")}
	for _, name := range files.SystemOrder {
		args = append(args, "--pred", name+"="+files.Systems[name])
	}
	stdout, _ := runCLI(t, args...)
	for _, want := range []string{"schema selection", "Pass@3", "query revision", "efficiency per question", "cross-system analysis", "Pareto frontier (correct rate, cost/question)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("terminal summary lacks %q", want)
		}
	}
	s := readSummary(t, out)
	m := s.Modules
	if m == nil || len(m.Systems) != len(files.SystemOrder) || m.Cross == nil {
		t.Fatalf("modules section: %+v", m)
	}
	if len(m.PassK) != 2 || m.PassK[0] != 1 || m.PassK[1] != 3 {
		t.Errorf("pass_k %v", m.PassK)
	}
	sawRevision, sawMulti := false, false
	for _, sm := range m.Systems {
		if sm.SchemaSelection == nil || sm.SchemaSelection.Questions == 0 {
			t.Errorf("%s: no schema selection", sm.System)
		}
		if sm.Usage == nil || sm.Usage.Cost == nil || sm.Usage.Model != "gpt-4o-mini" {
			t.Errorf("%s: no cost: %+v", sm.System, sm.Usage)
		}
		sawRevision = sawRevision || sm.Revision != nil
		cg := sm.CandidateGeneration
		if cg.MultiCandidate > 0 {
			sawMulti = true
			if !(cg.PassAt[1].Rate > cg.PassAt[0].Rate) {
				t.Errorf("%s: Pass@3 %v not above Pass@1 %v", sm.System, cg.PassAt[1].Rate, cg.PassAt[0].Rate)
			}
		}
	}
	if !sawRevision || !sawMulti {
		t.Errorf("demo lacks a revising (%v) or multi-candidate (%v) system", sawRevision, sawMulti)
	}
	if len(m.Cross.RecallCondition) == 0 || len(m.Cross.Overlaps) != 3 || len(m.Cross.TokenFrontier) == 0 {
		t.Errorf("cross-system: %+v", m.Cross)
	}
	recs := readModuleRecords(t, filepath.Join(out, files.SystemOrder[0], "records.jsonl"))
	withPass, withSchema := 0, 0
	for _, r := range recs {
		if r.PassAt != nil {
			withPass++
			if _, ok := r.PassAt["3"]; !ok {
				t.Errorf("record %d: pass_at %v", r.Index, r.PassAt)
			}
		}
		if r.GoldSchema != nil {
			withSchema++
		}
	}
	if withPass == 0 || withSchema == 0 {
		t.Errorf("records: %d with pass_at, %d with gold_schema", withPass, withSchema)
	}
}

func TestEvalModuleFlagsRejected(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "p.yaml")
	os.WriteFile(bad, []byte("models: {m: {input: -1}}"), 0o644)
	for _, args := range [][]string{
		{"eval", "--dataset", "jsonl:x", "--pred", "y", "--pass-k", "0"},
		{"eval", "--dataset", "jsonl:x", "--pred", "y", "--pricing", bad},
	} {
		var o, e strings.Builder
		if code := Run(t.Context(), cmdline(args...), strings.NewReader(""), &o, &e); code != exitUsage {
			t.Errorf("%v: exit %d, want %d; stderr %s", args, code, exitUsage, e.String())
		}
	}
}

// TestAdaptTASQLReal turns the real TA-SQL traces into module records and scores their
// schema selection against the BIRD mini-dev gold schema.
func TestAdaptTASQLReal(t *testing.T) {
	t.Parallel()
	traces := testutil.Shared(t, "data/bird/traces/ta-sql-gpt-4o-mini")
	qs := testutil.Shared(t, "data/bird/mini_dev_sqlite.json")
	dbRoot := testutil.Shared(t, "data/bird/dev_databases")
	dir := t.TempDir()
	recsFile := filepath.Join(dir, "ta-sql.jsonl")
	stdout, _ := runCLI(t, "adapt", "ta-sql", "--traces", traces, "--dataset", "bird:"+qs, "--out", recsFile)
	if !strings.Contains(stdout, "for 498 questions (1500 trace files)") {
		t.Errorf("adapt output: %s", stdout)
	}
	out := filepath.Join(dir, "run")
	runCLI(t, "eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "bird:"+qs, "--db-root", dbRoot, "--pred", "TA-SQL="+recsFile, "--out", out, "--json")
	s := readSummary(t, out)
	if s.Modules == nil || len(s.Modules.Systems) != 1 {
		t.Fatalf("modules: %+v", s.Modules)
	}
	sm := s.Modules.Systems[0]
	ss := sm.SchemaSelection
	// Only the superhero questions can be judged here; the others are skipped and, as
	// from every score, left out of schema selection.
	if ss == nil || ss.Questions != 52 || ss.Source["reported"] != 52 || ss.NoGold != 0 {
		t.Fatalf("schema selection: %+v", ss)
	}
	t.Logf("TA-SQL schema selection on mini-dev (macro, %d questions): tables P %.4f R %.4f F1 %.4f; columns P %.4f R %.4f F1 %.4f",
		ss.Questions, ss.Tables.P, ss.Tables.R, ss.Tables.F1, ss.Column.P, ss.Column.R, ss.Column.F1)
	// A preliminary SQL names the tables it needs almost always; far lower means a broken
	// extraction, not a weak system.
	if ss.Tables.R < 0.85 || ss.Column.R < 0.75 || ss.Tables.F1 > 1 || ss.Column.F1 > 1 {
		t.Errorf("implausible schema selection scores: %+v", ss)
	}
	// Token counts are not in the traces: unknown, never zero.
	if sm.Usage == nil || !sm.Usage.TokensUnknown || sm.Usage.Tokens != nil || sm.Usage.Calls.AllQuestions != 3 {
		t.Errorf("usage: %+v", sm.Usage)
	}
}
