package report

import (
	"bytes"
	"fmt"
	"html/template"

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

var matrixHTML = template.Must(template.New("matrix").Funcs(template.FuncMap{"heat": heat, "opt": optText}).Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>nl2sqlbench matrix</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}td.v{text-align:center}</style>
</head><body>
<h1>Experiment matrix: {{.S.Label}}</h1>
<p>{{len .S.Cells}} of {{len .M.Cells}} cells done. Each cell: {{.S.Label}} with its 95% interval, coloured from 0 (red) to 100 (green).</p>
{{range $ds := .S.Datasets}}
<h2>{{$ds}}</h2>
<table><tr><th></th>{{range $.S.Pipelines}}<th>{{.}}</th>{{end}}</tr>
{{range $mo := $.S.Models}}<tr><th>{{$mo}}</th>{{range $p := $.S.Pipelines}}{{with index $.ByName (printf "%s/%s+%s" $ds $mo $p)}}<td class="v" style="{{heat .Value}}">{{.Text}}<br><small>{{.CIText}}</small></td>{{else}}<td class="v" style="background:#eee">-</td>{{end}}{{end}}</tr>
{{end}}{{range $sys := $.S.Systems}}{{with index $.ByName (printf "%s/%s" $ds $sys)}}<tr><th>{{$sys}} (file)</th><td class="v" style="{{heat .Value}}">{{.Text}}<br><small>{{.CIText}}</small></td></tr>{{end}}{{end}}
</table>
<ul>{{range $.S.Marginals}}{{if eq .Dataset $ds}}<li>{{.Factor}} {{.Level}}: {{.Text}} (mean of {{.Cells}} cells)</li>{{end}}{{end}}</ul>
<ul>{{range $.S.Pairs}}{{if eq .Dataset $ds}}<li>{{.Factor}}: {{.Text}}</li>{{end}}{{end}}</ul>
{{range $.S.Best}}{{if eq .Dataset $ds}}<p><b>Best:</b> {{.Text}}</p>{{end}}{{end}}
{{end}}
<h2>Per correct answer</h2>
<table><tr><th>cell</th><th>correct / judged</th><th>cost $</th><th>latency ms</th><th>tokens</th></tr>
{{range .S.Cells}}<tr><td>{{.Name}}</td><td>{{.Correct}} / {{.Judged}}</td><td>{{opt .CostPerCorrect "%.6f"}}</td><td>{{opt .LatencyPerCorrectMS "%.0f"}}</td><td>{{opt .TokensPerCorrect "%.0f"}}</td></tr>{{end}}
</table>
{{range .S.Missing}}<p>Not done: {{.}}</p>{{end}}
</body></html>
`))

// WriteMatrixHTML writes DIR/matrix.html from matrix.json's summary, atomically.
func WriteMatrixHTML(path string, m *rundir.Matrix) error {
	byName := map[string]*rundir.CellResult{}
	for i := range m.Summary.Cells {
		byName[m.Summary.Cells[i].Name] = &m.Summary.Cells[i]
	}
	var buf bytes.Buffer
	if err := matrixHTML.Execute(&buf, struct {
		M      *rundir.Matrix
		S      *rundir.MatrixSummary
		ByName map[string]*rundir.CellResult
	}{m, m.Summary, byName}); err != nil {
		return fmt.Errorf("matrix html: %w", err)
	}
	return safefile.WriteFile(path, buf.Bytes())
}
