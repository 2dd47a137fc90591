package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect/fakellm"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// matrixScript answers as demoScript does for model "weak" (generation right on
// even-numbered questions only, every revision right) and always right for any other
// model, so the models of a plan answer differently. hook, when set, sees every request
// first (a test cancels the run from it).
func matrixScript(ds *dataset.Dataset, hook func()) func(fakellm.Request) fakellm.Reply {
	weak := demoScript(ds)
	gold := map[string]string{}
	for _, q := range ds.Questions {
		gold[q.Text] = q.Gold[0]
	}
	return func(r fakellm.Request) fakellm.Reply {
		if hook != nil {
			hook()
		}
		rep := weak(r)
		p := r.Prompt()
		if r.Model != "weak" && strings.HasPrefix(p, "### Task: text to SQL\n") && max(r.N, 1) == 1 {
			i := strings.LastIndex(p, "\nQuestion: ")
			text := p[i+len("\nQuestion: "):]
			text = text[:strings.IndexByte(text, '\n')]
			rep.Choices = []string{"```sql\n" + gold[text] + "\n```"}
		}
		return rep
	}
}

// matrixPipelines are the plan's three pipelines.
const matrixPipelines = `pipelines:
  full: {schema_selection: {strategy: full}}
  llm_exec: {schema_selection: {strategy: llm}, query_revision: {strategy: execution_guided}}
  pre_sc: {schema_selection: {strategy: preliminary_sql}, candidate_generation: {strategy: sampled, n: 3}, query_revision: {strategy: self_consistency}}
`

func matrixModels(url string) string {
	return "models:\n" +
		"  weak: {base_url: " + url + ", model: weak, api_key_env: CLI_TEST_KEY, concurrency: 2, pricing: {input: 0.15, output: 0.6}}\n" +
		"  strong: {base_url: " + url + ", model: strong, api_key_env: CLI_TEST_KEY, concurrency: 2, pricing: {input: 2.5, output: 10}}\n"
}

// demoMatrix writes a plan over the demo dataset (2 models x 3 pipelines, plus the demo's
// first prediction file) and returns it with the dataset and the scripted server.
func demoMatrix(t *testing.T, hook func()) (plan string, ds *dataset.Dataset, srv *fakellm.Server, files *demo.Files) {
	t.Helper()
	files, ds, _ = demoLLM(t, 1)
	srv = fakellm.New(matrixScript(ds, hook), 20000)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	plan = filepath.Join(dir, "plan.yaml")
	sys := files.SystemOrder[0]
	body := "datasets:\n  demo: {dataset: jsonl:" + files.Questions + ", db_root: " + files.DBRoot + "}\n" +
		matrixModels(srv.BaseURL) + matrixPipelines +
		"systems:\n  " + sys + ": {demo: " + files.Systems[sys] + "}\n"
	if err := os.WriteFile(plan, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return plan, ds, srv, files
}

func runMatrixCLI(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var out, errb strings.Builder
	code := Run(ctx, cmdline(append([]string{"matrix"}, args...)...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func readMatrix(t *testing.T, dir string) *rundir.Matrix {
	t.Helper()
	m, err := rundir.ReadMatrix(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// cellValues maps each done cell to its metric text and interval.
func cellValues(m *rundir.Matrix) map[string]string {
	out := map[string]string{}
	for _, c := range m.Summary.Cells {
		out[c.Name] = c.Text + " " + c.CIText + fmt.Sprintf(" %d/%d", c.Correct, c.Judged)
	}
	return out
}

func TestMatrixDemoGrid(t *testing.T) {
	skipLongInShort(t)
	t.Parallel()
	ctx := context.Background()
	plan, _, srv, files := demoMatrix(t, nil)
	out := filepath.Join(t.TempDir(), "grid")
	code, stdout, stderr := runMatrixCLI(t, ctx, plan, "--out", out, "--workers", "3")
	if code != 0 {
		t.Fatalf("matrix: exit %d\n%s\n%s", code, stdout, stderr)
	}
	m := readMatrix(t, out)
	if len(m.Cells) != 7 || countStatus(m, rundir.CellDone) != 7 {
		t.Fatalf("cells %d, done %d; want 7 and 7\n%s", len(m.Cells), countStatus(m, rundir.CellDone), stdout)
	}
	s := m.Summary
	byName := map[string]rundir.CellResult{}
	for _, c := range s.Cells {
		byName[c.Name] = c
	}
	// weak+full gets only the even-numbered questions right; every other collected cell all.
	if c := byName["demo/weak+full"]; c.Correct*2 > c.Judged+1 || c.Correct == 0 {
		t.Errorf("weak+full: %d of %d correct, want about half", c.Correct, c.Judged)
	}
	for _, n := range []string{"demo/strong+full", "demo/strong+llm_exec", "demo/weak+llm_exec"} {
		if c := byName[n]; c.Correct != c.Judged || c.CostPerCorrect == nil || c.LatencyPerCorrectMS == nil {
			t.Errorf("%s: %d of %d correct, cost/correct %v; want all, priced", n, c.Correct, c.Judged, c.CostPerCorrect)
		}
	}
	if c := byName["demo/"+files.SystemOrder[0]]; c.Judged == 0 || c.CostPerCorrect != nil {
		t.Errorf("the prediction file's cell: %+v; want judged, no cost", c)
	}
	var pipeTest, modelFull *rundir.MarginalPair
	for i, p := range s.Pairs {
		if p.Factor == "model" && p.A == "strong" && p.B == "weak" {
			modelFull = &s.Pairs[i]
		}
		if p.Factor == "pipeline" && p.A == "full" && p.B == "llm_exec" {
			pipeTest = &s.Pairs[i]
		}
	}
	if modelFull == nil || modelFull.AOnly == 0 || modelFull.BOnly != 0 || pipeTest == nil || pipeTest.BOnly == 0 {
		t.Errorf("marginal tests: model %+v, pipeline %+v", modelFull, pipeTest)
	}
	if len(s.Best) != 1 || s.Best[0].Best == "" {
		t.Errorf("best: %+v", s.Best)
	}
	if !strings.Contains(stdout, "best: ") || !strings.Contains(stdout, "each pipeline over the models") {
		t.Errorf("terminal output lacks the comparison:\n%s", stdout)
	}
	if b, err := os.ReadFile(filepath.Join(out, rundir.MatrixHTMLFile)); err != nil || !strings.Contains(string(b), "hsl(") {
		t.Errorf("matrix.html: %v", err)
	}

	// A rerun does nothing: no request, the same numbers.
	before := len(srv.Requests())
	if code, stdout, stderr := runMatrixCLI(t, ctx, plan, "--out", out); code != 0 {
		t.Fatalf("rerun: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if n := len(srv.Requests()) - before; n != 0 {
		t.Errorf("a rerun of a finished matrix sent %d requests", n)
	}
	if a, b := cellValues(m), cellValues(readMatrix(t, out)); !equalMaps(a, b) {
		t.Errorf("rerun changed the numbers: %v vs %v", a, b)
	}

	// A changed plan: one pipeline changed, so only its two cells run again, and the
	// earlier cells are kept aside.
	body, _ := os.ReadFile(plan)
	changed := strings.Replace(string(body), "query_revision: {strategy: execution_guided}}", "query_revision: {strategy: execution_guided, rounds: 1}}", 1)
	os.WriteFile(plan, []byte(changed), 0o644)
	code, stdout, stderr = runMatrixCLI(t, ctx, plan, "--out", out)
	if code != 0 || !strings.Contains(stderr, "matrix: 7 cells, 2 to run, 5 done") {
		t.Fatalf("changed plan: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if es, _ := os.ReadDir(filepath.Join(out, rundir.SupersededDir)); len(es) != 2 {
		t.Errorf("superseded cells: %d, want 2", len(es))
	}

	// A finished cell's judged records changed: judged again from its module records,
	// without a request. Its module records changed: refused.
	cell := filepath.Join(out, "cells", "demo", "weak+full")
	recs := filepath.Join(cell, "eval", "weak+full", "records.jsonl")
	b, _ := os.ReadFile(recs)
	if !strings.Contains(string(b), `"verdict":"error"`) {
		t.Fatalf("%s has no error verdict to tamper with", recs)
	}
	os.WriteFile(recs, []byte(strings.Replace(string(b), `"verdict":"error"`, `"verdict":"correct"`, 1)), 0o644)
	before = len(srv.Requests())
	code, _, stderr = runMatrixCLI(t, ctx, plan, "--out", out)
	if code != 0 || !strings.Contains(stderr, "1 to run") || len(srv.Requests()) != before {
		t.Fatalf("tampered records: exit %d, %d requests\n%s", code, len(srv.Requests())-before, stderr)
	}
	mods := filepath.Join(cell, "modules.jsonl")
	b, _ = os.ReadFile(mods)
	os.WriteFile(mods, append(b, '\n'), 0o644)
	if code, _, stderr = runMatrixCLI(t, ctx, plan, "--out", out); code == 0 || !strings.Contains(stderr, "is not the file the cell was judged from") {
		t.Errorf("tampered module records: exit %d\n%s", code, stderr)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestMatrixShardMerge(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	ctx := context.Background()
	plan, _, srv, _ := demoMatrix(t, nil)
	root := t.TempDir()
	whole := filepath.Join(root, "whole")
	if code, stdout, stderr := runMatrixCLI(t, ctx, plan, "--out", whole); code != 0 {
		t.Fatalf("matrix: exit %d\n%s\n%s", code, stdout, stderr)
	}
	var shards []string
	for _, s := range []string{"0/2", "1/2"} {
		dir := filepath.Join(root, "shard"+s[:1])
		if code, stdout, stderr := runMatrixCLI(t, ctx, plan, "--out", dir, "--shard", s); code != 0 {
			t.Fatalf("shard %s: exit %d\n%s\n%s", s, code, stdout, stderr)
		}
		if m := readMatrix(t, dir); countStatus(m, rundir.CellNotShard) == 0 || countStatus(m, rundir.CellDone) == 0 {
			t.Errorf("shard %s: %d done, %d in the other shard", s, countStatus(m, rundir.CellDone), countStatus(m, rundir.CellNotShard))
		}
		shards = append(shards, dir)
	}
	before := len(srv.Requests())
	merged := filepath.Join(root, "merged")
	code, stdout, stderr := runMatrixCLI(t, ctx, plan, "--out", merged, "--merge", shards[0], "--merge", shards[1])
	if code != 0 || !strings.Contains(stderr, "0 to run, 7 done") {
		t.Fatalf("merge: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if n := len(srv.Requests()) - before; n != 0 {
		t.Errorf("merging sent %d requests", n)
	}
	if a, b := cellValues(readMatrix(t, whole)), cellValues(readMatrix(t, merged)); !equalMaps(a, b) {
		t.Errorf("merged shards differ from the whole run:\n%v\n%v", a, b)
	}
}

func TestMatrixPlanErrors(t *testing.T) {
	t.Parallel()
	plan, _, _, _ := demoMatrix(t, nil)
	body, _ := os.ReadFile(plan)
	tests := []struct{ name, edit, want string }{
		{"unknown top key", "pipelinez: {}\n", "field pipelinez not found"},
		{"unknown model key", strings.Replace(string(body), "concurrency: 2, pricing", "concurency: 2, pricing", 1), "field concurency not found"},
		{"unknown pipeline key", strings.Replace(string(body), "{strategy: full}", "{strategy: full, extra: 1}", 1), "field extra not found"},
		{"bad exclude", "exclude: [demo/nope+full]\n", `"demo/nope+full" is not a cell`},
		{"system on unknown dataset", strings.Replace(string(body), "{demo: ", "{other: ", 1), "no such dataset"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "p.yaml")
			text := tt.edit
			if !strings.HasPrefix(text, "datasets:") {
				text = string(body) + tt.edit
			}
			os.WriteFile(p, []byte(text), 0o644)
			code, _, stderr := runMatrixCLI(t, context.Background(), p, "--out", filepath.Join(t.TempDir(), "o"), "--dry-run")
			if code == 0 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want an error with %q", code, stderr, tt.want)
			}
		})
	}
}

// moduleCalls reads a modules.jsonl: each question's LLM requests (calls not answered
// from the cache), by db_id and question id.
func moduleCalls(t *testing.T, path string) map[string]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var r predict.ModuleRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		k := r.DBID + "\x00" + string(r.QuestionID)
		out[k] += r.LLMCalls.N - r.CachedCalls
	}
	return out
}

// TestMatrixUntrustedIndex: a matrix.json that cannot be read, or of another schema
// version, is refused before any cell runs (the cells are never mixed with it).
func TestMatrixUntrustedIndex(t *testing.T) {
	t.Parallel()
	plan, _, srv, _ := demoMatrix(t, nil)
	tests := []struct{ name, body, want string }{
		{"not JSON", "{\"cells\": [", "matrix.json"},
		{"another schema version", `{"schema_version": 99, "plan_sha256": "x", "cells": []}`, "schema_version 99"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "grid")
			os.MkdirAll(out, 0o755)
			os.WriteFile(filepath.Join(out, rundir.MatrixFile), []byte(tt.body), 0o644)
			code, _, stderr := runMatrixCLI(t, context.Background(), plan, "--out", out)
			if code == 0 || !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, "move it aside") {
				t.Errorf("exit %d, stderr %q; want a refusal naming %q", code, stderr, tt.want)
			}
			if n := len(srv.Requests()); n != 0 {
				t.Errorf("%d requests sent", n)
			}
		})
	}
}
