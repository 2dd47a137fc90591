package report

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"os"
	"path/filepath"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// The experiment matrix's page, DIR/matrix.html: matrix.json's summary (run.MatrixSummary
// computed it) as a heatmap of the cells per dataset, the marginal effects, the best
// cell and the cost and latency per correct answer. It computes no number.

// optText formats an optional value, "-" when absent.
func optText(v *float64, format string) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf(format, *v)
}

// heat colours a value between 0 and 1 from red to green (the heatmap of the cells).
func heat(v *float64) template.CSS {
	if v == nil {
		return "background:#eee"
	}
	return template.CSS(fmt.Sprintf("background:hsl(%.0f,70%%,80%%)", 120**v))
}

// matrixBody is the page's body, shared by matrix.html and the dashboard's matrix view;
// each defines "head", "cell" (a finished cell: .R its figures, .Link its run's page or
// "") and "empty" (a cell not done).
const matrixBody = `{{define "body"}}<h1>Experiment matrix: {{.S.Label}}</h1>
<p>{{len .S.Cells}} of {{len .M.Cells}} cells done. Each cell: {{.S.Label}} with its 95% interval, coloured from 0 (red) to 100 (green).</p>
{{range $ds := .S.Datasets}}
<h2>{{$ds}}</h2>
<table><tr><th></th>{{range $.S.Pipelines}}<th>{{.}}</th>{{end}}</tr>
{{range $mo := $.S.Models}}<tr><th>{{$mo}}</th>{{range $p := $.S.Pipelines}}{{with index $.ByName (printf "%s/%s+%s" $ds $mo $p)}}{{template "cell" ($.Cell .)}}{{else}}{{template "empty"}}{{end}}{{end}}</tr>
{{end}}{{range $sys := $.S.Systems}}{{with index $.ByName (printf "%s/%s" $ds $sys)}}<tr><th>{{$sys}} (file)</th>{{template "cell" ($.Cell .)}}</tr>{{end}}{{end}}
</table>
<ul>{{range $.S.Marginals}}{{if eq .Dataset $ds}}<li>{{.Factor}} {{.Level}}: {{.Text}} (mean of {{.Cells}} cells)</li>{{end}}{{end}}</ul>
<ul>{{range $.S.Pairs}}{{if eq .Dataset $ds}}<li>{{.Factor}}: {{.Text}}</li>{{end}}{{end}}</ul>
{{range $.S.Best}}{{if eq .Dataset $ds}}<p><b>Best:</b> {{.Text}}</p>{{end}}{{end}}
{{end}}
<h2>Per correct answer</h2>
<table><tr><th>cell</th><th>correct / judged</th><th>cost $</th><th>latency ms</th><th>tokens</th></tr>
{{range .S.Cells}}<tr><td>{{.Name}}</td><td>{{.Correct}} / {{.Judged}}</td><td>{{opt .CostPerCorrect "%.6f"}}</td><td>{{opt .LatencyPerCorrectMS "%.0f"}}</td><td>{{opt .TokensPerCorrect "%.0f"}}</td></tr>{{end}}
</table>
{{range .S.Cells}}{{if .Tasks}}<p>{{.Name}}: {{tasks .Tasks}}</p>
{{end}}{{end}}{{range .S.Missing}}<p>Not done: {{.}}</p>{{end}}
</body></html>
{{end}}`

// matrixHTML is matrix.html, a file on its own: colours in style attributes.
var matrixHTML = template.Must(template.New("matrix").Funcs(template.FuncMap{"heat": heat, "opt": optText, "tasks": cellTasksText}).Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>nl2sqlbench matrix</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}td.v{text-align:center}</style>
</head><body>
{{template "body" .}}` + matrixBody + `{{define "cell"}}<td class="v" style="{{heat .R.Value}}">{{.R.Text}}<br><small>{{.R.CIText}}</small></td>{{end}}` +
	`{{define "empty"}}<td class="v" style="background:#eee">-</td>{{end}}`))

// matrixView holds what the matrix's templates render.
type matrixView struct {
	M      *rundir.Matrix
	S      *rundir.MatrixSummary
	ByName map[string]*rundir.CellResult
	Links  map[string]string // cell name -> its run's page (the dashboard)
}

// matrixCell is one finished cell as "cell" renders it.
type matrixCell struct {
	R    *rundir.CellResult
	Link string
}

// Cell is a finished cell with its link.
func (v matrixView) Cell(r *rundir.CellResult) matrixCell {
	return matrixCell{R: r, Link: v.Links[r.Name]}
}

func newMatrixView(m *rundir.Matrix, links map[string]string) matrixView {
	byName := map[string]*rundir.CellResult{}
	for i := range m.Summary.Cells {
		byName[m.Summary.Cells[i].Name] = &m.Summary.Cells[i]
	}
	return matrixView{M: m, S: m.Summary, ByName: byName, Links: links}
}

// WriteMatrixHTML writes DIR/matrix.html from matrix.json's summary, atomically.
func WriteMatrixHTML(path string, m *rundir.Matrix) error {
	var buf bytes.Buffer
	if err := matrixHTML.Execute(&buf, newMatrixView(m, nil)); err != nil {
		return fmt.Errorf("matrix html: %w", err)
	}
	return safefile.WriteFile(path, buf.Bytes())
}

// The dashboard's matrix view (serve over a matrix directory): the same page, each
// finished cell linking to its judged run's page. The dashboard's pages allow no style
// attribute (serve_guard.go), so the heat is one of eleven classes of its own style
// sheet, allowed by its hash.

// matrixCSS is the view's style sheet: the page's, and the heat classes h0 (0) to h10 (1).
var matrixCSS = func() string {
	css := "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}td.v{text-align:center}td.none{background:#eee}"
	for i := 0; i <= 10; i++ {
		css += fmt.Sprintf(".h%d{background:hsl(%d,70%%,80%%)}", i, 12*i)
	}
	return css
}()

// heatClass is v's heat class (v between 0 and 1), "none" without a value.
func heatClass(v *float64) string {
	if v == nil {
		return "none"
	}
	return fmt.Sprintf("h%d", int(min(max(*v, 0), 1)*10+0.5))
}

var matrixPage = template.Must(template.New("matrix").Funcs(template.FuncMap{"heat": heatClass, "opt": optText, "tasks": cellTasksText, "css": func() template.CSS { return template.CSS(matrixCSS) }}).Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>nl2sqlbench matrix</title>
<style>{{css}}</style>
</head><body>
<nav><a href="/">all runs</a></nav>
{{template "body" .}}` + matrixBody + `{{define "cell"}}<td class="v {{heat .R.Value}}">{{if .Link}}<a href="{{.Link}}">{{.R.Text}}</a>{{else}}{{.R.Text}}{{end}}<br><small>{{.R.CIText}}</small></td>{{end}}` +
	`{{define "empty"}}<td class="v none">-</td>{{end}}`))

// matrixPolicy is the view's Content-Security-Policy: the dashboard's, with the view's
// own style sheet.
var matrixPolicy = "default-src 'none'; style-src " + cspHash(matrixCSS) + "; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// matrixPage serves the matrix of the root (DIR/matrix.json): a heatmap of its cells,
// each finished one linking to its judged run (found by walking the root, as every run
// is; never a path from matrix.json).
func (s *Server) matrixPage(w http.ResponseWriter, r *http.Request) {
	m, err := rundir.ReadMatrix(s.root)
	switch {
	case errors.Is(err, os.ErrNotExist):
		http.Error(w, "no matrix.json in "+s.root, http.StatusNotFound)
		return
	case err != nil:
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	case m.Summary == nil:
		http.Error(w, "the matrix has no comparison yet (matrix.json is written with one when the matrix command ends)", http.StatusNotFound)
		return
	}
	runs, _ := s.Runs()
	byRel := map[string]string{}
	for _, r := range runs {
		byRel[r.rel] = r.URL
	}
	links := map[string]string{}
	for _, c := range m.Cells {
		if u, ok := byRel[filepath.ToSlash(filepath.Join(rundir.CellDirName(c.Name), rundir.CellEvalDir))]; ok {
			links[c.Name] = u
		}
	}
	var buf bytes.Buffer
	if err := matrixPage.Execute(&buf, newMatrixView(m, links)); err != nil {
		http.Error(w, "render: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", matrixPolicy)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "same-origin")
	w.Write(buf.Bytes())
}

// hasMatrix says whether the root is a matrix directory (its index links the view).
func (s *Server) hasMatrix() bool {
	_, err := os.Stat(filepath.Join(s.root, rundir.MatrixFile))
	return err == nil
}
