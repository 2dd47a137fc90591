package report

import (
	"fmt"
	"html/template"
	"math"
	"slices"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// Chart is one figure of the report. A chart whose data the run does not hold has no SVG
// and a one-line Note saying why; it is never drawn empty.
type Chart struct {
	ID, Title string
	SVG       template.HTML
	Caption   string
	Note      string
}

// Charts builds every figure of the report from the run's summary, in report order: the
// registry's values (metrics section), the verdict tallies and the analysis sections.
// No chart averages records. To add a figure, append a builder here: a function from
// *rundir.Summary to Chart that sets Note when its data is absent.
func Charts(run *rundir.Run) []Chart {
	s := &run.Summary
	builders := []func(*rundir.Summary) Chart{
		chartVerdicts, chartErrors, chartExTmSm, chartPassAtK, chartSchema, chartRevision,
		chartSolvedBy, chartOverlap, chartTokens, chartCost, chartEfficiency,
	}
	out := make([]Chart, 0, len(builders))
	for _, b := range builders {
		if c := b(s); c.ID != "" { // no ID: a figure that cannot apply to this kind of run
			out = append(out, c)
		}
	}
	return out
}

func absent(id, title, note string) Chart { return Chart{ID: id, Title: title, Note: note} }

// runDifficulties are the difficulties present in the run, easy to hard.
func runDifficulties(run *rundir.Run) []string {
	seen := map[string]bool{}
	for _, s := range run.Systems {
		for _, r := range s.Records {
			seen[r.Difficulty] = true
		}
	}
	var ds []string
	for d := range seen {
		ds = append(ds, d)
	}
	return metrics.DifficultyOrder(ds)
}

var verdictKeys = []Segment{{Label: "correct", Color: colCorrect}, {Label: "incorrect", Color: colIncorrect}, {Label: "error", Color: colError}}

func chartVerdicts(s *rundir.Summary) Chart {
	const id = "verdicts"
	title := "Correct / incorrect / error by " + Grouping(s)
	var rows []BarRow
	diffs := difficulties(s.Systems)
	if len(diffs) > 0 {
		diffs = append(diffs, "all")
	} else {
		diffs = []string{"all"}
	}
	for _, sys := range s.Systems {
		for _, d := range diffs {
			n := sys.Overall.Counts.Judged
			if d != "all" {
				n = judgedIn(sys, d)
			}
			if n == 0 {
				continue
			}
			seg := func(label, id, color string) Segment {
				return Segment{Label: label, Value: zeroNaN(metricValue(s, sys.System, id, d)), Color: color, Text: cellOf(s, sys.System, id, d).Text}
			}
			rows = append(rows, BarRow{Label: sys.System + " · " + d, Note: fmt.Sprintf("n=%d", n),
				Segments: []Segment{seg("correct", metrics.PrimaryID, colCorrect), seg("incorrect", string(record.Incorrect), colIncorrect), seg("error", string(record.Error), colError)}})
		}
	}
	if len(rows) == 0 {
		return absent(id, title, "No judged records in this run.")
	}
	return Chart{ID: id, Title: title, SVG: StackedBars(title, rows, verdictKeys),
		Caption: "Share of judged questions (skipped and gold_error excluded) under the run's " + SemanticsName(s) + " semantics."}
}

func zeroNaN(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

func chartErrors(s *rundir.Summary) Chart {
	const id, title = "errors", "Error categories"
	var rows []string
	var vals [][]float64
	maxV := 0.0
	for _, c := range record.Categories {
		row := make([]float64, len(s.Systems))
		any := false
		for j, sys := range s.Systems {
			row[j] = float64(sys.Overall.Counts.Categories[c])
			any = any || row[j] > 0
			maxV = math.Max(maxV, row[j])
		}
		if any {
			rows = append(rows, string(c))
			vals = append(vals, row)
		}
	}
	if len(rows) == 0 {
		return absent(id, title, "No prediction failed to execute: there are no error categories to show.")
	}
	return Chart{ID: id, Title: title, SVG: GroupedBars(title, rows, summaryNames(s), vals, maxV, func(v float64) string { return fmt.Sprintf("%.0f", v) }),
		Caption: "Number of predictions per error category."}
}

// sysColor is system i's colour in every chart.
func sysColor(i int) string { return palette[i%len(palette)] }

func systemNames(run *rundir.Run) []string { return summaryNames(&run.Summary) }

func summaryNames(s *rundir.Summary) []string {
	var out []string
	for _, sys := range s.Systems {
		out = append(out, sys.System)
	}
	return out
}

// pctText labels a bar with the value at the rounding of every table.
func pctText(v float64) string { return metrics.Percent.Format(v) }

// registryBars draws the given registry metrics (those the run carries) per system; a
// metric that is n/a for a system is left out of its group.
func registryBars(s *rundir.Summary, id, title string, ids []string, note, caption string, rowOK func(system string) bool) Chart {
	var series, used []string
	for _, m := range ids {
		if def, _, ok := s.Metrics.Lookup(firstSystem(s), m); ok {
			series = append(series, def.Label)
			used = append(used, m)
		}
	}
	if len(used) == 0 {
		return absent(id, title, note)
	}
	var rows []string
	var vals [][]float64
	maxV := 1.0
	for _, sys := range s.Systems {
		if rowOK != nil && !rowOK(sys.System) {
			continue
		}
		row := make([]float64, len(used))
		has := false
		for j, m := range used {
			row[j] = metricValue(s, sys.System, m, "all")
			if !math.IsNaN(row[j]) {
				has = true
				maxV = math.Max(maxV, row[j])
			}
		}
		if has {
			rows = append(rows, sys.System)
			vals = append(vals, row)
		}
	}
	if len(rows) == 0 {
		return absent(id, title, note)
	}
	return Chart{ID: id, Title: title, SVG: GroupedBars(title, rows, series, vals, maxV, pctText), Caption: caption}
}

func firstSystem(s *rundir.Summary) string {
	if len(s.Systems) == 0 {
		return ""
	}
	return s.Systems[0].System
}

// chartExTmSm compares execution accuracy with the structural metrics (ETM, ESM) and the
// flexible comparison where the run carries them.
func chartExTmSm(s *rundir.Summary) Chart {
	const id, title = "ex-etm-esm", "EX vs ESM vs ETM per system"
	if len(s.Spider2) > 0 {
		return Chart{} // Spider 2.0 judges result tables: no SQL structure to match
	}
	ids := metrics.ChartIDs(metrics.ChartStructure) // EX first, then what it is compared with
	if !slices.ContainsFunc(ids[1:], s.Metrics.Has) {
		return absent(id, title, "The run computed no ETM, ESM or Flex: only EX is available.")
	}
	return registryBars(s, id, title, ids, "No applicable value.",
		"Scores in % over judged questions, as in the score table; a metric that is n/a for a system (too little coverage) is not drawn.", nil)
}

func chartEfficiency(s *rundir.Summary) Chart {
	ids := metrics.ChartIDs(metrics.ChartEfficiency)
	var labels []string
	for _, m := range ids {
		if def, _, ok := s.Metrics.Lookup(firstSystem(s), m); ok {
			labels = append(labels, def.Label)
		}
	}
	title := "Soft-F1 per system"
	if len(labels) > 1 {
		title = strings.Join(labels[:len(labels)-1], ", ") + " and " + labels[len(labels)-1] + " per system"
	}
	return registryBars(s, "efficiency", title, ids,
		"The run has no Soft-F1 or VES.", "Scores in % over judged questions, on the same scale as EX and the score table (VES can exceed 100%).", nil)
}

func chartSchema(s *rundir.Summary) Chart {
	var ids []string
	for _, d := range s.Metrics.Group("schema") {
		ids = append(ids, d.ID)
	}
	return registryBars(s, "schema", "Schema selection precision / recall / F1", ids,
		"Records carry no schema-selection scores.",
		"Mean of per-question scores (macro) over the judged questions where each is defined. "+schemaSources(s), nil)
}

// schemaSources says, per system, where its predicted schemas came from, as summary.json's
// schema-selection section counts them: the selection the system reported, or the
// tables and columns its SQL reads.
func schemaSources(s *rundir.Summary) string {
	if s.Modules == nil {
		return ""
	}
	var parts []string
	for _, sm := range s.Modules.Systems {
		ss := sm.SchemaSelection
		if ss == nil || len(ss.Source) == 0 {
			continue
		}
		rep, sql := ss.Source["reported"], ss.Source["pred_sql"]
		switch {
		case rep > 0 && sql == 0:
			parts = append(parts, fmt.Sprintf("%s: the selection it reported (%d questions)", sm.System, rep))
		case sql > 0 && rep == 0:
			parts = append(parts, fmt.Sprintf("%s: read from its SQL, it reported no selection (%d questions)", sm.System, sql))
		default:
			parts = append(parts, fmt.Sprintf("%s: the selection it reported (%d questions), else read from its SQL (%d)", sm.System, rep, sql))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Predicted schema of " + strings.Join(parts, "; ") + "."
}

// chartPassAtK draws the registry's Pass@k for the systems that reported several
// candidates (for the others Pass@k is Pass@1 and n/a).
func chartPassAtK(s *rundir.Summary) Chart {
	const id, title = "pass-at-k", "Pass@k"
	defs := s.Metrics.Group("candidates")
	if len(defs) == 0 {
		return absent(id, title, "No system reported more than one candidate per question: Pass@k needs several.")
	}
	var ks []float64
	for _, d := range defs {
		var k int
		fmt.Sscanf(d.ID, "pass@%d", &k)
		ks = append(ks, float64(k))
	}
	var lines []Line
	for si, sys := range s.Systems {
		if !multiCandidate(s, sys.System) {
			continue // its Pass@k is its EX: a flat line that says nothing (the table reads n/a)
		}
		l := Line{Label: sys.System, Color: sysColor(si)}
		for j, d := range defs {
			if v := metricValue(s, sys.System, d.ID, "all"); !math.IsNaN(v) {
				l.Points = append(l.Points, [2]float64{ks[j], v})
			}
		}
		if len(l.Points) > 0 {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 || len(ks) < 2 {
		return absent(id, title, "Pass@k needs several k and a system with several candidates.")
	}
	return Chart{ID: id, Title: title, SVG: LineChart(title, "k (candidates)", ks, lines),
		Caption: "Share of judged questions with a correct SQL among the first k candidates; a question with fewer than k candidates uses all it has. Systems with one candidate per question are not drawn."}
}

// multiCandidate reports whether summary.json counts a question with several candidates
// for the system; a run without the modules section leaves the registry to decide.
func multiCandidate(s *rundir.Summary, system string) bool {
	if s.Modules == nil {
		return true
	}
	for _, sm := range s.Modules.Systems {
		if sm.System == system {
			return sm.CandidateGeneration.MultiCandidate > 0
		}
	}
	return true
}
