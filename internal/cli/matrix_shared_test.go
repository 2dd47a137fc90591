package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/collect/fakellm"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// spiderSubset writes Spider dev's questions on one database (with DAIL's predictions for
// them) as a Spider dataset of their own: the matrix test's Spider subset.
func spiderSubset(t *testing.T, dbID string) (devJSON, pred string) {
	t.Helper()
	root := testutil.Shared(t, "data/spider")
	b, err := os.ReadFile(filepath.Join(root, "dev.json"))
	if err != nil {
		t.Fatal(err)
	}
	var all []map[string]any
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	dail := testutil.SpiderPredictions(t, "DAIL")
	var sub []map[string]any
	var preds []string
	for i, q := range all {
		if q["db_id"] == dbID {
			sub = append(sub, q)
			preds = append(preds, dail[i])
		}
	}
	dir := t.TempDir()
	devJSON, pred = filepath.Join(dir, "dev.json"), filepath.Join(dir, "DAIL.txt")
	out, _ := json.Marshal(sub)
	os.WriteFile(devJSON, out, 0o644)
	os.WriteFile(pred, []byte(strings.Join(preds, "\n")+"\n"), 0o644)
	return devJSON, pred
}

// slowGold are BIRD dev questions whose gold takes about 0.45 s on SQLite (a correlated
// EXISTS over superhero's hero_power and hero_attribute): TestMatrixKillResume judged
// them about 50 times, 23 CPU-s, and speed is not what it checks.
var slowGold = map[int]bool{730: true, 738: true}

// birdSubset writes the first n of BIRD dev's questions on one database, slowGold aside, (with TA-SQL's
// predictions for them, keyed by their new indexes) as a BIRD dataset of their own, with
// dev_tables.json beside it as beside dev.json: the matrix test's BIRD subset.
func birdSubset(t *testing.T, dbID string, n int) (devJSON, pred string) {
	t.Helper()
	root := testutil.Shared(t, "data/bird")
	var all []map[string]any
	if err := json.Unmarshal([]byte(readFileT(t, filepath.Join(root, "dev.json"))), &all); err != nil {
		t.Fatal(err)
	}
	var tasql map[string]string
	if err := json.Unmarshal([]byte(readFileT(t, filepath.Join(root, "predictions", "dev", "TA-SQL_predict_dev.json"))), &tasql); err != nil {
		t.Fatal(err)
	}
	var sub []map[string]any
	preds := map[string]string{}
	for i, q := range all {
		if q["db_id"] == dbID && len(sub) < n && !slowGold[i] {
			p, ok := tasql[fmt.Sprint(i)]
			if !ok {
				t.Fatalf("TA-SQL has no prediction for BIRD dev question %d", i)
			}
			preds[fmt.Sprint(len(sub))] = p
			sub = append(sub, q)
		}
	}
	if len(sub) != n {
		t.Fatalf("BIRD dev has %d questions on %s, want at least %d", len(sub), dbID, n)
	}
	dir := t.TempDir()
	devJSON, pred = filepath.Join(dir, "dev.json"), filepath.Join(dir, "TA-SQL.json")
	for path, v := range map[string]any{devJSON: sub, pred: preds} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "dev_tables.json"), filepath.Join(dir, "dev_tables.json")); err != nil {
		t.Fatal(err)
	}
	return devJSON, pred
}

// TestMatrixKillResume runs the done-when plan: 3 pipelines x 2 models x 2 datasets
// (Spider dev's 45 concert_singer questions, the first 43 of BIRD dev's 129 superhero
// questions but the two slow golds: all 129 made it the package's slowest test, 19
// CPU-s, for no other assertion) against the scripted LLM, plus a prediction file on disk per dataset. The
// run is cancelled mid-way and resumed: the resumed run sends exactly the requests of the questions the
// first run had not recorded (none for a finished question), and every cell's judged
// records equal those of the same cell run alone with collect + eval. The dry run's
// estimate brackets each cell's real calls.
func TestMatrixKillResume(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("skipping the matrix end-to-end run in -short mode")
	}
	// On real data the limits are the users': stated to the matrix (--timeout,
	// --max-rows), to every eval and, in the pipelines, to the revision's execution
	// (exec_timeout), rather than read from this binary's lowered defaults.
	limits := []string{"--timeout", realTimeout, "--max-rows", realMaxRows}
	pipelines := realLimitPipelines
	spiderDev, dailSub := spiderSubset(t, "concert_singer")
	spiderRoot := testutil.Shared(t, "data/spider")
	birdDev, tasql := birdSubset(t, "superhero", 43)
	birdDBs := testutil.Shared(t, "data/bird/dev_databases")
	bg := context.Background()
	sp, err := dataset.Load(bg, "spider:"+spiderDev, dataset.Options{DBRoot: filepath.Join(spiderRoot, "database"), Tables: filepath.Join(spiderRoot, "tables.json")})
	if err != nil {
		t.Fatal(err)
	}
	bd, err := dataset.Load(bg, "bird:"+birdDev, dataset.Options{DBRoot: birdDBs})
	if err != nil {
		t.Fatal(err)
	}
	both := &dataset.Dataset{}
	both.Questions = append(append(both.Questions, sp.Questions...), bd.Questions...)

	var sent atomic.Int64
	var cancelAt atomic.Int64
	var mu sync.Mutex
	var cancel context.CancelFunc
	hook := func() {
		if n := sent.Add(1); n == cancelAt.Load() {
			mu.Lock()
			cancel()
			mu.Unlock()
		}
	}
	srv := fakellm.New(matrixScript(both, hook), 100000)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	plan := filepath.Join(dir, "plan.yaml")
	os.WriteFile(plan, []byte("datasets:\n"+
		"  spider: {dataset: spider:"+spiderDev+", db_root: "+filepath.Join(spiderRoot, "database")+", tables: "+filepath.Join(spiderRoot, "tables.json")+"}\n"+
		"  superhero: {dataset: bird:"+birdDev+", db_root: "+birdDBs+", db_id: [superhero]}\n"+
		matrixModels(srv.BaseURL)+pipelines+
		"systems:\n  DAIL: {spider: "+dailSub+"}\n  TA-SQL: {superhero: "+tasql+"}\n"), 0o644)
	p, err := benchrun.LoadMatrixPlan(plan)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "grid")

	// The dry run: what each cell will ask.
	code, dry, stderr := runMatrixCLI(t, bg, append([]string{plan, "--out", out, "--dry-run"}, limits...)...)
	if code != 0 {
		t.Fatalf("dry run: exit %d\n%s", code, stderr)
	}
	t.Logf("dry run:\n%s", dry)
	if _, err := os.Stat(out); err == nil {
		t.Errorf("--dry-run wrote %s", out)
	}
	estimates := map[string]*collect.Estimate{}
	for _, c := range p.Cells {
		if c.Collected() {
			ds := sp
			var sel func(dataset.Question) bool
			if c.Dataset == "superhero" {
				ds, sel = bd, func(q dataset.Question) bool { return q.DBID == "superhero" }
			}
			if estimates[c.Name], err = collect.EstimateRun(bg, collect.Options{Config: c.Config, Dataset: ds, Select: sel}); err != nil {
				t.Fatal(err)
			}
		}
	}

	// Run 1, cancelled after 350 requests (of 927: 4 of the 14 cells done); run 2 resumes.
	ctx, cf := context.WithCancel(bg)
	mu.Lock()
	cancel = cf
	mu.Unlock()
	cancelAt.Store(350)
	code, _, stderr = runMatrixCLI(t, ctx, append([]string{plan, "--out", out, "--workers", "3"}, limits...)...)
	if code == 0 {
		t.Fatalf("the cancelled run exited 0\n%s", stderr)
	}
	run1 := sent.Load()
	m1 := readMatrix(t, out)
	recorded := map[string]map[string]int{} // cell -> questions recorded by run 1
	for _, c := range p.Cells {
		if c.Collected() {
			if path := filepath.Join(out, "cells", c.Dataset, c.EvalName(), "modules.jsonl"); fileExists(path) {
				recorded[c.Name] = moduleCalls(t, path)
			}
		}
	}
	// The dry run now counts what the cancelled run recorded as free.
	code, dry, stderr = runMatrixCLI(t, bg, append([]string{plan, "--out", out, "--dry-run"}, limits...)...)
	if code != 0 {
		t.Fatalf("dry run after the cancel: exit %d\n%s", code, stderr)
	}
	t.Logf("dry run after the cancel:\n%s", dry)
	for _, c := range p.Cells {
		if !c.Collected() {
			continue
		}
		ds, sel := sp, func(dataset.Question) bool { return true }
		if c.Dataset == "superhero" {
			ds, sel = bd, func(q dataset.Question) bool { return q.DBID == "superhero" }
		}
		est, err := collect.EstimateRun(bg, collect.Options{Config: c.Config, Dataset: ds, Select: sel, OutDir: filepath.Join(out, "cells", c.Dataset, c.EvalName())})
		if err != nil {
			t.Fatal(err)
		}
		if est.Recorded != len(recorded[c.Name]) || est.Recorded+est.ToAsk != est.Questions {
			t.Errorf("%s: the dry run counts %d recorded of %d (%d to ask); the cancelled run recorded %d", c.Name, est.Recorded, est.Questions, est.ToAsk, len(recorded[c.Name]))
		}
	}
	code, stdout, stderr := runMatrixCLI(t, bg, append([]string{plan, "--out", out, "--workers", "3"}, limits...)...)
	if code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, stdout, stderr)
	}
	run2 := sent.Load() - run1
	t.Logf("resumed matrix:\n%s", stdout)
	m2 := readMatrix(t, out)

	// Each cell alone, with collect + eval.
	var fresh, wantRun2 int64
	alone := filepath.Join(dir, "alone")
	for _, c := range p.Cells {
		cellDir := filepath.Join(out, "cells", c.Dataset, c.EvalName())
		d := p.Datasets[c.Dataset]
		evalArgs := append([]string{"eval", "--dataset", d.Dataset}, limits...)
		if d.DBRoot != "" {
			evalArgs = append(evalArgs, "--db-root", d.DBRoot)
		}
		if d.Tables != "" {
			evalArgs = append(evalArgs, "--tables", d.Tables)
		}
		for _, id := range d.DBIDs {
			evalArgs = append(evalArgs, "--db-id", id)
		}
		pred := c.PredFile
		if c.Collected() {
			cdir := filepath.Join(alone, c.Dataset, c.EvalName())
			cfg := filepath.Join(alone, c.Dataset+"-"+c.EvalName()+".yaml")
			os.MkdirAll(filepath.Dir(cfg), 0o755)
			pl := strings.SplitN(strings.SplitN(pipelines, "  "+c.Pipeline+": ", 2)[1], "\n", 2)[0]
			os.WriteFile(cfg, []byte("llm: {base_url: "+srv.BaseURL+", model: "+c.Model+", api_key_env: CLI_TEST_KEY, concurrency: 2}\npipeline: "+pl+"\n"), 0o644)
			args := []string{"collect", "--config", cfg, "--dataset", d.Dataset, "--out", cdir}
			if d.DBRoot != "" {
				args = append(args, "--db-root", d.DBRoot)
			}
			if d.Tables != "" {
				args = append(args, "--tables", d.Tables)
			}
			runCLI(t, args...)
			pred = filepath.Join(cdir, "modules.jsonl")
			calls := moduleCalls(t, pred)
			total := 0
			for k, n := range calls {
				if strings.HasPrefix(k, "superhero\x00") || c.Dataset == "spider" {
					total += n
					fresh += int64(n)
					if _, done := recorded[c.Name][k]; !done {
						wantRun2 += int64(n)
					}
				}
			}
			if e := estimates[c.Name]; total < e.CallsMin || total > e.CallsMax {
				t.Errorf("%s: %d calls, outside the dry run's estimate %d-%d", c.Name, total, e.CallsMin, e.CallsMax)
			} else {
				real := 0
				for _, r := range m2.Summary.Cells {
					if r.Name == c.Name {
						real = r.Tokens
					}
				}
				t.Logf("%-26s calls: estimated %4d-%4d, real %4d; tokens: estimated %7d-%7d, reported by the fake LLM (prompt words + 10 a completion) %7d", c.Name, e.CallsMin, e.CallsMax, total,
					e.PromptTokensMin+e.CompletionTokensMin, e.PromptTokensMax+e.CompletionTokensMax, real)
			}
		}
		evalOut := filepath.Join(alone, c.Dataset, c.EvalName()+"-eval")
		runCLI(t, append(evalArgs, "--pred", c.EvalName()+"="+pred, "--out", evalOut)...)
		got := judgedRecords(t, filepath.Join(cellDir, "eval"), c.EvalName())
		want := judgedRecords(t, evalOut, c.EvalName())
		if len(got) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the matrix's %d records differ from collect + eval's %d", c.Name, len(got), len(want))
		}
	}
	t.Logf("requests: cancelled run %d, resumed run %d (the unrecorded questions' own: %d), every cell alone %d; cells done after the cancel %d of %d",
		run1, run2, wantRun2, fresh, countStatus(m1, rundir.CellDone), len(m1.Cells))
	if run2 != wantRun2 {
		t.Errorf("the resumed run sent %d requests, want %d (those of the questions the first run had not recorded)", run2, wantRun2)
	}
	if countStatus(m2, rundir.CellDone) != len(p.Cells) || len(m2.Summary.Cells) != len(p.Cells) {
		t.Errorf("after the resume: %d of %d cells done", countStatus(m2, rundir.CellDone), len(p.Cells))
	}
}

// realLimitPipelines are matrixPipelines with the users' default execution timeout
// stated where a pipeline runs SQL (TestMatrixKillResume, on real data).
const realLimitPipelines = `pipelines:
  full: {schema_selection: {strategy: full}}
  llm_exec: {schema_selection: {strategy: llm}, query_revision: {strategy: execution_guided, exec_timeout: ` + realTimeout + `}}
  pre_sc: {schema_selection: {strategy: preliminary_sql}, candidate_generation: {strategy: sampled, n: 3}, query_revision: {strategy: self_consistency, exec_timeout: ` + realTimeout + `}}
`

func fileExists(path string) bool { _, err := os.Stat(path); return err == nil }

// judgedRecords reads a run's records of one system as the fields a verdict consists of.
func judgedRecords(t *testing.T, dir, system string) []string {
	t.Helper()
	r, err := rundir.Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range r.Systems {
		if s.Name != system {
			continue
		}
		for _, x := range s.Records {
			out = append(out, fmt.Sprintf("%d %s %s %s %d %d %s %s", x.Index, x.QuestionID, x.Verdict, x.PredSQL, x.ExBird, x.ExSpider, optInt(x.ESM), optInt(x.ETM)))
		}
	}
	return out
}

func optInt(p *int) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}

// countStatus counts the cells of m in status.
func countStatus(m *rundir.Matrix, status string) int {
	n := 0
	for _, c := range m.Cells {
		if c.Status == status {
			n++
		}
	}
	return n
}
