package report

import (
	"fmt"
	"math"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

var nan = math.NaN()

// The tables every output shares. The terminal, the Markdown summary, the HTML report and
// the dashboard all print these, built from summary.json's metrics section, so a number
// reads the same (same value, same rounding) wherever one looks.

// ScoreTable is the headline table: one row per system, one column per headline metric
// the run carries.
type ScoreTable struct {
	Title   string
	Columns []metrics.Definition
	Rows    []ScoreRow
	// SkipTerm is what the records not judged are called (the column of Skipped):
	// "skipped", or "not judged" for tasks on a database copy (summary.json's skips).
	SkipTerm string
	// Excluded says how many were judged and why the others were not, when every system
	// has as many ("5 of 6; 1 not judged: needs --task-code python"); "" when every
	// record was judged or systems differ (the skipped and gold_error columns say then).
	Excluded string
}

// PerSystemExclusions reports whether systems differ in what was not judged, so that
// the skipped and gold_error counts need a column per system rather than one note.
func (t ScoreTable) PerSystemExclusions() bool {
	for _, r := range t.Rows {
		if r.Skipped != t.Rows[0].Skipped || r.GoldError != t.Rows[0].GoldError {
			return true
		}
	}
	return false
}

// ScoreRow is one system's line of the headline table.
type ScoreRow struct {
	System                     string
	Judged, Skipped, GoldError int
	Cells                      []ScoreCell
}

// ScoreCell is one printed value, with what it is (for the HTML's data attributes, which the
// consistency tests read back).
type ScoreCell struct {
	Metric, Difficulty string
	Text               string
	NA                 bool
}

func cellOf(s *rundir.Summary, system, id, difficulty string) ScoreCell {
	c := ScoreCell{Metric: id, Difficulty: difficulty, Text: "n/a", NA: true}
	_, v, ok := s.Metrics.Lookup(system, id)
	if !ok {
		return c
	}
	if d := v.In(difficulty); d != nil {
		c.Text, c.NA = d.Text, !d.Applicable
	}
	return c
}

// Scores builds the headline table from the summary.
func Scores(s *rundir.Summary) ScoreTable { return GroupScores(s, "headline") }

// GroupScores builds the table of one registry group ("headline", "schema",
// "candidates", "usage"); it has no columns when the run carries none of the group.
func GroupScores(s *rundir.Summary, group string) ScoreTable {
	term, why := skipReason(s)
	t := ScoreTable{Columns: s.Metrics.Group(group), Title: groupTitles[group], SkipTerm: term}
	for _, sys := range s.Systems {
		c := sys.Overall.Counts
		row := ScoreRow{System: sys.System, Judged: c.Judged, Skipped: c.Skipped, GoldError: c.GoldError}
		for _, d := range t.Columns {
			row.Cells = append(row.Cells, cellOf(s, sys.System, d.ID, "all"))
		}
		t.Rows = append(t.Rows, row)
	}
	if len(t.Rows) > 0 && !t.PerSystemExclusions() {
		t.Excluded = excludedNote(s.Dataset.Questions, t.Rows[0], term, why)
	}
	return t
}

// groupTitles name the tables of the registry's groups.
var groupTitles = map[string]string{
	"headline":   "Scores (%)",
	"schema":     "Schema selection (%): mean over the judged questions where defined",
	"candidates": "Candidate generation: Pass@k (%)",
	"usage":      "Usage per question: mean over every judged question",
}

// ModuleTables are the registry's tables beside the headline one, those the run has.
func ModuleTables(s *rundir.Summary) []ScoreTable {
	var out []ScoreTable
	for _, g := range []string{"schema", "candidates", "usage"} {
		if t := GroupScores(s, g); len(t.Columns) > 0 {
			out = append(out, t)
		}
	}
	return out
}

// DifficultyTable is every headline metric per difficulty: rows are (system, metric).
type DifficultyTable struct {
	// Grouping names what the columns are: "difficulty", or "backend" in a Spider 2.0
	// run, whose records keep their backend where others keep a difficulty.
	Grouping     string
	Difficulties []string // then "all"
	Counts       []int    // judged questions per difficulty, then overall (first system)
	Rows         []DifficultyRow
}

// DifficultyRow is one system's one metric across difficulties.
type DifficultyRow struct {
	System, Label string
	Metric        string      // the metric's id
	Cells         []ScoreCell // one per difficulty, then "all"
}

// ByDifficulty builds the difficulty table; it has no rows when the run has fewer than
// two difficulties (the headline table says it all).
func ByDifficulty(s *rundir.Summary) DifficultyTable {
	t := DifficultyTable{Grouping: Grouping(s)}
	diffs := difficulties(s.Systems)
	if len(diffs) == 0 {
		return t
	}
	t.Difficulties = diffs
	for _, d := range diffs {
		t.Counts = append(t.Counts, judgedIn(s.Systems[0], d))
	}
	t.Counts = append(t.Counts, s.Systems[0].Overall.Counts.Judged)
	for _, sys := range s.Systems {
		for _, def := range s.Metrics.Group("headline") {
			if metrics.DisplayOf(def.ID).NotByDifficulty {
				continue
			}
			row := DifficultyRow{System: sys.System, Label: def.Label, Metric: def.ID}
			for _, d := range append(append([]string{}, diffs...), "all") {
				row.Cells = append(row.Cells, cellOf(s, sys.System, def.ID, d))
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

// Grouping names what a run's per-difficulty values are grouped by: "backend" in a
// Spider 2.0 run (sqlite, bigquery, snowflake), "difficulty" otherwise.
func Grouping(s *rundir.Summary) string {
	if len(s.Spider2) > 0 {
		return "backend"
	}
	return "difficulty"
}

// SemanticsName is the rule EX is judged by, for "EX under ... semantics": the run's
// --semantics, or Spider 2.0's result-table match in the mode that decided.
func SemanticsName(s *rundir.Summary) string {
	if len(s.Spider2) > 0 {
		return "Spider 2.0 " + s.Spider2[0].Mode
	}
	return s.Settings.Semantics
}

// metricValue is a system's value of a metric for charts: NaN when absent or n/a.
func metricValue(s *rundir.Summary, system, id, difficulty string) float64 {
	_, v, ok := s.Metrics.Lookup(system, id)
	if !ok {
		return nan
	}
	return v.In(difficulty).Float()
}

// The rows below are the shared tables as cells, for the terminal (writeGrid) and the
// Markdown summary (mdGrid) alike; the head row first.

// scoreRows is the headline table: system, judged, each column's text (or why there is
// none), and skipped (or not judged) and gold_error when withExcluded.
func scoreRows(t ScoreTable, withExcluded bool) [][]string {
	head := []string{"system", "judged"}
	for _, c := range t.Columns {
		head = append(head, c.Label)
	}
	if len(t.Columns) == 0 { // no metric applies: say why rather than print no score
		head = append(head, "scores")
	}
	if withExcluded {
		head = append(head, t.SkipTerm, "gold_error")
	}
	rows := [][]string{head}
	for _, r := range t.Rows {
		row := cells(r.System, r.Judged)
		for _, c := range r.Cells {
			row = append(row, c.Text)
		}
		if len(t.Columns) == 0 {
			row = append(row, noScores(r.Judged))
		}
		if withExcluded {
			row = append(row, cells(r.Skipped, r.GoldError)...)
		}
		rows = append(rows, row)
	}
	return rows
}

// difficultyRows lays rows of d out: a head (the corner cells, then each difficulty and
// "all"), the judged counts under countLabel, then each row's system, its metric's label
// when withLabel, and its values.
func difficultyRows(d DifficultyTable, rows []DifficultyRow, corner []string, countLabel string, withLabel bool) [][]string {
	head := append(append(append([]string{}, corner...), d.Difficulties...), "all")
	count := []string{countLabel}
	if withLabel {
		count = append(count, "")
	}
	for _, n := range d.Counts {
		count = append(count, fmt.Sprint(n))
	}
	out := [][]string{head, count}
	for _, r := range rows {
		row := []string{r.System}
		if withLabel {
			row = append(row, r.Label)
		}
		for _, c := range r.Cells {
			row = append(row, c.Text)
		}
		out = append(out, row)
	}
	return out
}

// categoryRows is each system's count of predictions that failed to run, per error
// category; nil when none failed (a table of zeros says nothing).
func categoryRows(s *rundir.Summary) [][]string {
	errs := 0
	for _, sys := range s.Systems {
		errs += sys.Overall.Counts.Error
	}
	if errs == 0 {
		return nil
	}
	head := []string{"system"}
	for _, c := range record.Categories {
		head = append(head, string(c))
	}
	rows := [][]string{head}
	for _, sys := range s.Systems {
		row := []string{sys.System}
		for _, c := range record.Categories {
			row = append(row, fmt.Sprint(sys.Overall.Counts.Categories[c]))
		}
		rows = append(rows, row)
	}
	return rows
}
