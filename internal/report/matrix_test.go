package report

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// testMatrix is a finished 2x2 grid on one dataset, plus a prediction file and a cell
// not done, with a name that must be escaped.
func testMatrix() *rundir.Matrix {
	v := func(x float64) *float64 { return &x }
	return &rundir.Matrix{PlanSHA256: "abc", Cells: []rundir.MatrixCell{
		{Name: "demo/weak+direct", Dataset: "demo", Model: "weak", Pipeline: "direct", Status: rundir.CellDone},
		{Name: "demo/weak+revise", Dataset: "demo", Model: "weak", Pipeline: "revise", Status: rundir.CellDone},
		{Name: "demo/strong+direct", Dataset: "demo", Model: "strong", Pipeline: "direct", Status: rundir.CellDone},
		{Name: "demo/strong+revise", Dataset: "demo", Model: "strong", Pipeline: "revise", Status: rundir.CellFailed},
		{Name: "demo/<b>file", Dataset: "demo", System: "<b>file", Status: rundir.CellDone},
	}, Summary: &rundir.MatrixSummary{Metric: "ex", Label: "EX", Alpha: 0.05,
		Cells: []rundir.CellResult{
			{Name: "demo/weak+direct", Dataset: "demo", Model: "weak", Pipeline: "direct", Value: v(0.25), Text: "25.00", CIText: "[10.0, 40.0]", Judged: 8, Correct: 2, CostPerCorrect: v(0.0012)},
			{Name: "demo/weak+revise", Dataset: "demo", Model: "weak", Pipeline: "revise", Value: v(0.5), Text: "50.00", CIText: "[30.0, 70.0]", Judged: 8, Correct: 4, LatencyPerCorrectMS: v(120)},
			{Name: "demo/strong+direct", Dataset: "demo", Model: "strong", Pipeline: "direct", Value: v(1), Text: "100.00", CIText: "[80.0, 100.0]", Judged: 8, Correct: 8, TokensPerCorrect: v(900)},
			{Name: "demo/<b>file", Dataset: "demo", System: "<b>file", Value: nil, Text: "n/a", Judged: 0},
		},
		Marginals: []rundir.Marginal{{Dataset: "demo", Factor: "pipeline", Level: "direct", Text: "62.50", Cells: 2}},
		Pairs:     []rundir.MarginalPair{{Dataset: "demo", Factor: "model", A: "strong", B: "weak", Text: "strong - weak: +75.00 (p 0.01)"}},
		Best:      []rundir.BestCell{{Dataset: "demo", Best: "demo/strong+direct", Text: "demo/strong+direct, ahead of demo/weak+revise by 50.00 (p 0.03)"}},
		Datasets:  []string{"demo"}, Models: []string{"strong", "weak"}, Pipelines: []string{"direct", "revise"}, Systems: []string{"<b>file"},
		Missing: []string{"demo/strong+revise"},
	}}
}

// TestWriteMatrixHTML: matrix.html against its golden file (go test -run
// TestWriteMatrixHTML -update rewrites it after a deliberate change).
func TestWriteMatrixHTML(t *testing.T) {
	path := filepath.Join(t.TempDir(), "matrix.html")
	if err := WriteMatrixHTML(path, testMatrix()); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "matrix.html")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("matrix.html differs from %s (rerun with -update after a deliberate change):\n%s", golden, got)
	}
	if strings.Contains(string(got), "<b>file") {
		t.Error("a system name reached the page unescaped")
	}
}

// TestServeMatrix: serve over a matrix directory links the matrix view from its index;
// the view is the heatmap of the cells, each finished cell whose judged run is under the
// root linking to that run's page, under a policy that allows its own style sheet only.
func TestServeMatrix(t *testing.T) {
	root := t.TempDir()
	if err := rundir.WriteMatrix(root, testMatrix()); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(root, rundir.CellDirName("demo/weak+revise"), rundir.CellEvalDir)
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run, rundir.SummaryFile), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := NewServer(root, ExecOptions{})
	defer s.Close()
	runs, _ := s.Runs()
	if len(runs) != 1 {
		t.Fatalf("runs under the matrix: %+v", runs)
	}
	h := s.Handler()
	get := func(path string) (*httptest.ResponseRecorder, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec, rec.Body.String()
	}
	if _, body := get("/"); !strings.Contains(body, `<a href="/matrix/">`) {
		t.Errorf("the index does not link the matrix:\n%s", body)
	}
	rec, body := get("/matrix/")
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /matrix/: %d %s", rec.Code, body)
	}
	link := `<a href="` + strings.ReplaceAll(runs[0].URL, "+", "&#43;") + `">50.00</a>`
	if !strings.Contains(body, link) {
		t.Errorf("the cell with a run does not link it (want %s):\n%s", link, body)
	}
	if rec, _ := get(runs[0].URL); rec.Code == http.StatusNotFound {
		t.Errorf("the cell's link %s finds no run", runs[0].URL)
	}
	if strings.Count(body, "<a href=") != 2 { // all runs, and the one cell with a run
		t.Errorf("links: want the cell with a run only:\n%s", body)
	}
	for _, want := range []string{`class="v h10"`, `class="v h3"`, `class="v h5"`, `class="v none">-</td>`, "Not done: demo/strong&#43;revise"} {
		if !strings.Contains(body, want) {
			t.Errorf("the view lacks %s:\n%s", want, body)
		}
	}
	if strings.Contains(body, "style=") || strings.Contains(body, "<b>file") {
		t.Errorf("a style attribute (refused by the policy) or an unescaped name in the view:\n%s", body)
	}
	if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, cspHash(matrixCSS)) || !strings.Contains(body, "<style>"+matrixCSS+"</style>") {
		t.Errorf("the policy %q does not allow the view's own style sheet", csp)
	}

	empty := NewServer(t.TempDir(), ExecOptions{})
	defer empty.Close()
	rec = httptest.NewRecorder()
	empty.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/matrix/", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("GET /matrix/ without a matrix: %d", rec.Code)
	}
}
