package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect/fakellm"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine/sqlppfake"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestMatrixTwoPassCell: a pipeline with second_pass is a matrix cell run as collect runs
// it. The weak model gets the even-numbered questions right; its second pass (asked only
// the questions the first got wrong) answers gold, so the two-pass cell ends all correct
// while the one-pass cell of the same pipeline stays at about half.
func TestMatrixTwoPassCell(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	files, ds, _ := demoLLM(t, 1)
	srv := fakellm.New(matrixScript(ds, nil), 20000)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	plan := filepath.Join(dir, "plan.yaml")
	body := "datasets:\n  demo: {dataset: jsonl:" + files.Questions + ", db_root: " + files.DBRoot + "}\n" +
		"models:\n  weak: {base_url: " + srv.BaseURL + ", model: weak, api_key_env: CLI_TEST_KEY, concurrency: 2}\n" +
		"pipelines:\n  full: {schema_selection: {strategy: full}}\n" +
		"  retry: {schema_selection: {strategy: full}, second_pass: {enabled: true, compare: ex}}\n"
	if err := os.WriteFile(plan, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "grid")

	code, stdout, stderr := runMatrixCLI(t, ctx, plan, "--out", out, "--dry-run")
	if code != 0 || !strings.Contains(stdout, "demo/weak+retry (pass 1)") || !strings.Contains(stdout, "1 two-pass cell(s)") {
		t.Fatalf("dry run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("the dry run sent %d requests", n)
	}

	code, stdout, stderr = runMatrixCLI(t, ctx, plan, "--out", out, "--workers", "2")
	if code != 0 {
		t.Fatalf("matrix: exit %d\n%s\n%s", code, stdout, stderr)
	}
	m := readMatrix(t, out)
	if countStatus(m, rundir.CellDone) != 2 {
		t.Fatalf("done cells: %d of %d\n%s", countStatus(m, rundir.CellDone), len(m.Cells), stderr)
	}
	var one, two rundir.CellResult
	for _, c := range m.Summary.Cells {
		switch c.Name {
		case "demo/weak+full":
			one = c
		case "demo/weak+retry":
			two = c
		}
	}
	if one.Judged == 0 || one.Correct*2 > one.Judged+1 {
		t.Errorf("one pass: %d of %d correct, want about half", one.Correct, one.Judged)
	}
	if two.Judged != one.Judged || two.Correct != two.Judged {
		t.Errorf("two passes: %d of %d correct, want all of %d", two.Correct, two.Judged, one.Judged)
	}
	var rep struct {
		Retried   int `json:"retried"`
		Recovered int `json:"second_pass_recovered"`
		First     int `json:"first_pass_correct"`
	}
	b, err := os.ReadFile(filepath.Join(out, "cells", "demo", "weak+retry", "two_pass.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Retried == 0 || rep.Recovered != rep.Retried || rep.First != one.Correct {
		t.Errorf("two_pass.json: %+v; the one-pass cell had %d correct", rep, one.Correct)
	}

	// A rerun asks nothing and changes nothing; the two-pass cell is done as any other.
	before := len(srv.Requests())
	if code, stdout, stderr := runMatrixCLI(t, ctx, plan, "--out", out); code != 0 {
		t.Fatalf("rerun: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if n := len(srv.Requests()) - before; n != 0 {
		t.Errorf("a rerun sent %d requests", n)
	}
	if a, b := cellValues(m), cellValues(readMatrix(t, out)); !equalMaps(a, b) {
		t.Errorf("rerun changed the numbers: %v vs %v", a, b)
	}
}

// TestMatrixSQLPPCell: a SQL++ pipeline is a matrix cell on a dataset that names its
// query service (here the fake one over the demo's SQLite files), one pass or two; the
// same pipeline on a dataset without one is refused naming the cells.
func TestMatrixSQLPPCell(t *testing.T) {
	skipLongInShort(t)
	t.Parallel()
	ctx := context.Background()
	files, ds, docs := demoDocs(t)
	cb := sqlppfake.New(files.DBRoot)
	t.Cleanup(cb.Close)
	script := &twoPassScript{ds: ds, prompts: map[string][]string{}}
	srv := fakellm.New(script.reply, 20000)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	plan := filepath.Join(dir, "plan.yaml")
	pipelines := "pipelines:\n  pp: {dialect: sqlpp, documents: " + docs + "}\n" +
		"  pp2: {dialect: sqlpp, documents: " + docs + ", second_pass: {enabled: true, compare: flex}}\n"
	models := "models:\n  m: {base_url: " + srv.BaseURL + ", model: fake, api_key_env: CLI_TEST_KEY, concurrency: 2}\n"
	dataset := "datasets:\n  demo: {dataset: jsonl:" + files.Questions + ", db_root: " + files.DBRoot
	os.WriteFile(plan, []byte(dataset+"}\n"+models+pipelines), 0o644)
	out := filepath.Join(dir, "grid")
	if code, _, stderr := runMatrixCLI(t, ctx, plan, "--out", out); code == 0 || !strings.Contains(stderr, "cells demo/m+pp, demo/m+pp2 run a SQL++ pipeline on a dataset without sqlpp") {
		t.Fatalf("no query service: exit %d\n%s", code, stderr)
	}

	os.WriteFile(plan, []byte(dataset+", sqlpp: {endpoint: "+cb.URL()+", bucket: bench}}\n"+models+pipelines), 0o644)
	code, stdout, stderr := runMatrixCLI(t, ctx, plan, "--out", out, "--dry-run")
	if code != 0 || !strings.Contains(stdout, "not estimated: SQL++ pipelines are not estimated") {
		t.Fatalf("dry run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	before := cb.Requests()
	code, stdout, stderr = runMatrixCLI(t, ctx, plan, "--out", out, "--workers", "2")
	if code != 0 {
		t.Fatalf("matrix: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if cb.Requests() == before {
		t.Errorf("nothing ran on the SQL++ service")
	}
	m := readMatrix(t, out)
	want := 0 // twoPassScript: the first pass is right on every third question
	for _, q := range ds.Questions {
		if q.Index%3 == 0 {
			want++
		}
	}
	for _, c := range m.Summary.Cells {
		switch c.Name {
		case "demo/m+pp":
			// Two of the demo's questions have no judged gold on purpose.
			if c.Judged != len(ds.Questions)-2 || c.Correct != want {
				t.Errorf("%s: %d of %d correct, want %d of %d", c.Name, c.Correct, c.Judged, want, len(ds.Questions)-2)
			}
		case "demo/m+pp2":
			if c.Judged != len(ds.Questions)-2 || c.Correct != c.Judged {
				t.Errorf("%s: %d of %d correct, want all", c.Name, c.Correct, c.Judged)
			}
		default:
			t.Errorf("unexpected cell %s", c.Name)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "cells", "demo", "m+pp", "eval", "manifest.json"))
	if err != nil || !strings.Contains(string(b), `"engine": "sqlpp"`) {
		t.Errorf("the SQL++ cell's manifest does not say it ran on sqlpp (%v):\n%.600s", err, b)
	}
}
