package report

import (
	"context"
	"embed"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// The HTML report: one self-contained file (styles and the small filter script inline, charts
// as inline SVG, nothing fetched from the network) with the scores, the charts and every
// question's drill-down. The dashboard (serve.go) renders the same templates.

//go:embed templates/*
var templateFS embed.FS

var pageTemplates *template.Template

func init() {
	pageTemplates = template.Must(template.New("report").Funcs(template.FuncMap{
		"css": func() template.CSS { return template.CSS(mustAsset("templates/style.css")) },
		"js":  func() template.JS { return template.JS(mustAsset("templates/filter.js")) },
		// Cell labels for the phone layout, where a table's rows become cards (layout.go).
		"colLabel":  colLabel,
		"diffLabel": diffLabel,
		"headLabel": headLabel,
		"splitCI":   splitCI,
		// The page's sections (sections.go): their templates in the list's order, and one
		// drawn from the page.
		"sections": pageSections,
		"section":  drawSection,
	}).ParseFS(templateFS, "templates/*.tmpl"))
}

// pageSections are the templates of the HTML placements of Sections, in its order.
func pageSections() []string {
	var out []string
	for _, sec := range Sections {
		if sec.In&OutHTML != 0 && sec.Template != "" {
			out = append(out, sec.Template)
		}
	}
	return out
}

// drawSection draws the page's section of template name (escaped by html/template as
// the page is: a section is HTML text, as where the page puts it).
func drawSection(name string, p *Page) (template.HTML, error) {
	var b strings.Builder
	if err := pageTemplates.ExecuteTemplate(&b, name, p); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil //nolint:gosec // html/template's own output
}

func mustAsset(name string) string {
	b, err := templateFS.ReadFile(name)
	if err != nil {
		panic(err) // embedded at build time: cannot be missing
	}
	return string(b)
}

// HTMLOptions configure the HTML report.
type HTMLOptions struct {
	Exec   ExecOptions   // Exec.DBRoot "" (the default) runs no query
	NoExec bool          // leave result tables out (no database access) even with Exec.DBRoot
	Engine engine.Engine // runs the drill-down's queries; nil opens (and closes) a SQLite engine
	Title  string        // default: the run directory's name
	// Dataset is a question file the user gave (report --dataset) to show what records
	// do not hold (BIRD's evidence); "" reads none, and the run's recorded path never.
	Dataset string
}

// Page is what the report and dashboard templates render.
type Page struct {
	Title      string
	Static     bool   // the self-contained report (drill-downs inline) rather than the dashboard
	Base, Home string // dashboard URLs: this run's, and the run list's
	Dataset    rundir.DatasetInfo
	Semantics  string
	Created    string
	Warnings   []string
	// Banner says the run was changed after it was written (rundir.Integrity): shown
	// above everything, since the numbers below may not be what its records support.
	Banner       string
	Scores       ScoreTable
	ByDifficulty DifficultyTable
	ModuleTables []ScoreTable
	Comparison   *TextTable     // each system against the best, at the top (vsbest.go)
	Stats        []TextTable    // intervals and paired comparisons (table_stats.go)
	Tasks        []TextTable    // tasks on a database copy: by phase, category and difficulty (table_tasks.go)
	Audit        []TextTable    // the gold audit (audit.go)
	Agreement    *AgreementView // verdicts against expert labels and each other (agreement.go)
	Slices       []TextTable    // slices and result_diff kinds (table_slices.go)
	SliceFilter  []SliceOption
	Charts       []Chart
	Systems      []string
	SystemFilter int // the system filter's initial choice (index into Systems); -1: any
	Difficulties []string
	DBs          []string
	HasETM       bool
	Questions    []QuestionView
	ExecNote     string
}

// BuildPage assembles the report's page from a run, without result tables: the static
// report executes every question's queries (WriteHTML), the dashboard one question on
// demand, each only under a database root the user gave. datasetFile is a question file
// the user gave for BIRD's evidence ("" none); the page reads no other file than the run's.
func BuildPage(ctx context.Context, run *rundir.Run, title, datasetFile string) *Page {
	if title == "" {
		title = "nl2sqlbench report: " + filepath.Base(filepath.Clean(run.Dir))
	}
	p := &Page{Title: title, Dataset: run.Summary.Dataset, Semantics: SemanticsName(&run.Summary),
		Warnings: append(append([]string{}, run.Summary.Warnings...), run.Warnings...), Banner: run.Integrity.Banner(),
		Systems: systemNames(run), SystemFilter: -1, Difficulties: runDifficulties(run), HasETM: run.Summary.Metrics.Has("etm")}
	if n := run.Integrity.Note(); n != "" {
		p.Warnings = append(p.Warnings, n)
	}
	if !run.Summary.CreatedAt.IsZero() {
		p.Created = run.Summary.CreatedAt.UTC().Format(time.RFC3339)
	}
	evidence, warn := loadEvidence(ctx, run, datasetFile)
	if warn != "" {
		p.Warnings = append(p.Warnings, warn)
	}
	p.Questions = questions(run, evidence)
	// The sections, from the one list (sections.go).
	for _, sec := range Sections {
		if sec.In&OutHTML != 0 && sec.HTML != nil {
			sec.HTML(p, run)
		}
	}
	dbs := map[string]bool{}
	for _, q := range p.Questions {
		dbs[q.DBID] = true
	}
	for d := range dbs {
		p.DBs = append(p.DBs, d)
	}
	sort.Strings(p.DBs)
	return p
}

// WriteHTML writes the self-contained HTML report of run.
func WriteHTML(ctx context.Context, w io.Writer, run *rundir.Run, opt HTMLOptions) error {
	p := BuildPage(ctx, run, opt.Title, opt.Dataset)
	p.Static = true
	switch {
	case opt.NoExec:
		p.ExecNote = "Result tables left out (--no-exec)."
	case opt.Exec.DBRoot == "":
		p.ExecNote = NoExecNote
	default:
		eng := opt.Engine
		if eng == nil {
			s := engine.NewSQLite()
			defer s.Close()
			eng = s
		}
		x := newExecutor(run, eng, opt.Exec)
		golds, preds := rawSQL(run)
		for i := range p.Questions {
			fillResults(ctx, x, &p.Questions[i], golds, preds)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		p.ExecNote = fmt.Sprintf("Result tables: gold and predictions re-executed read-only; first %d rows shown, rows not in the other result highlighted.", x.opt.Rows)
	}
	if err := pageTemplates.ExecuteTemplate(w, "page", p); err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	return nil
}

// NoExecNote says, in the report and the dashboard, why a drill-down has no result
// tables by default and which flag gives them.
const NoExecNote = "Result tables not shown: no query is re-executed unless you name the databases (" + ExecFlag + ": the run's database root, read-only); the run's recorded root is never used."
