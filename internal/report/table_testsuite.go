package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// writeTestSuite prints summary.json's test_suite section (eval --test-suite): per
// system, the EX-correct predictions searched and those a counterexample database
// proved wrong, and which questions; TS-EX itself is in the score tables beside EX. It
// prints nothing when the run did not search.
func writeTestSuite(w io.Writer, s *rundir.Summary) error {
	for _, line := range testSuiteLines(s) {
		if _, err := io.WriteString(w, line+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// testSuiteLines is the section as text lines: a table, then each system's list.
func testSuiteLines(s *rundir.Summary) []string {
	t := s.TestSuite
	if t == nil || len(t.Systems) == 0 {
		return nil
	}
	var b strings.Builder
	tt := TextTable{Title: fmt.Sprintf("counterexample databases (%s)", t.Settings), Head: []string{"system", "EX-correct searched", "not searchable",
		"counterexamples", "EX yes ETM no", "of them with counterexample", "robustness findings", "gold suspect", "databases tried"}}
	for _, sys := range t.Systems {
		tt.Rows = append(tt.Rows, cells(sys.System, sys.Searched, sys.Unsearched, sys.Found, sys.ETMNo, sys.ETMNoFound, sys.Robust, sys.GoldSuspect, sys.DBs))
	}
	writeTitled(&b, tt)
	indexes := func(cs []metrics.TestSuiteCase) string {
		idx := make([]int, len(cs))
		for i, c := range cs {
			idx[i] = c.Index
		}
		return indexList(idx)
	}
	for _, sys := range t.Systems {
		fmt.Fprintf(&b, "%s: EX yes, TS-EX no (realistic counterexample database found): %s\n", sys.System, indexes(sys.Differ))
		if len(sys.RobustCases) > 0 {
			fmt.Fprintf(&b, "%s: robustness findings (correct on this data, breaks if the data departs from its profile): %s\n", sys.System, indexes(sys.RobustCases))
		}
		if len(sys.GoldSuspectCases) > 0 {
			fmt.Fprintf(&b, "%s: gold suspect (the difference is a tie under the gold's LIMIT): %s%s\n", sys.System, indexes(sys.GoldSuspectCases), goldAuditText(sys.GoldSuspectCases))
		}
	}
	if t.ProofBound > 0 || t.ProofNote != "" {
		pt := TextTable{Title: fmt.Sprintf("bounded proofs (z3, at most %d rows per table)", t.ProofBound), Head: []string{"system", "proven", "refuted", "unknown", "refuted by the solver only"}}
		for _, sys := range t.Systems {
			pt.Rows = append(pt.Rows, cells(sys.System, sys.Proven, sys.Refuted, sys.ProofUnknown, sys.SolverFound))
		}
		writeTitled(&b, pt)
		fmt.Fprintf(&b, "%s\n", metrics.ProofPromise)
		if t.ProofNote != "" {
			fmt.Fprintf(&b, "note: %s\n", t.ProofNote)
		}
	}
	if len(t.SharedGold) > 0 {
		idx := make([]int, len(t.SharedGold))
		for i, g := range t.SharedGold {
			idx[i] = g.Index
		}
		fmt.Fprintf(&b, "gold suspect (most systems share a counterexample against it): %s\n", indexList(idx))
	}
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

// CounterexampleView is a record's counterexample in the drill-down: the script and
// both results on it.
type CounterexampleView struct {
	Path        string
	Rows        int
	Kind        string   // realistic or robustness (record.Counterexample)
	Assumes     []string // the data-profile facts it departs from
	GoldSuspect string
	// GoldAudit is the gold audit's matching finding on the original data ("limit_tie:
	// evidence"), or what it says when there is none.
	GoldAudit  string
	Script     string // "" when the file cannot be read (Note says why)
	Note       string
	Gold, Pred *ResultView
}

// counterexampleView reads r's counterexample script from the run directory dir.
// maxScriptShown caps a counterexample script read for the page (a real one is a few
// kilobytes).
const maxScriptShown = 16 << 20

func counterexampleView(dir string, r *record.Record) *CounterexampleView {
	c := r.Counterexample
	if c == nil {
		return nil
	}
	v := &CounterexampleView{Path: c.Path, Rows: c.Rows, Kind: c.Kind, Assumes: c.Assumes, GoldSuspect: c.GoldSuspect,
		Gold: tableView(c.GoldResult), Pred: tableView(c.PredResult)}
	if a := c.GoldSuspectAudit; a != nil {
		v.GoldAudit = a.Check
		if a.Evidence != "" {
			v.GoldAudit += ": " + a.Evidence
		}
	}
	// The path is the run directory's word: it must name a regular file inside it.
	if text, err := rundir.ReadInside(dir, c.Path, maxScriptShown); err != nil {
		v.Note = "script not readable: " + err.Error()
	} else {
		v.Script = string(text)
	}
	return v
}

func tableView(t record.ResultTable) *ResultView {
	v := &ResultView{Columns: t.Columns, Total: len(t.Rows), Note: plural(len(t.Rows), "row")}
	for _, row := range t.Rows {
		cells := make([]Cell, len(row))
		for j, val := range row {
			cells[j] = Cell{Text: cellText(val)}
		}
		v.Rows = append(v.Rows, cells)
	}
	return v
}

// goldAuditText groups gold-suspect cases by the audit finding they match on the
// original data (" (audit on the original data: limit_tie 3, 17; none 40)"), or "" for
// a run from before the link existed.
func goldAuditText(cs []metrics.TestSuiteCase) string {
	var order []string
	by := map[string][]int{}
	for _, c := range cs {
		if c.GoldAudit == "" {
			continue
		}
		if _, ok := by[c.GoldAudit]; !ok {
			order = append(order, c.GoldAudit)
		}
		by[c.GoldAudit] = append(by[c.GoldAudit], c.Index)
	}
	if len(order) == 0 {
		return ""
	}
	parts := make([]string, len(order))
	for i, check := range order {
		parts[i] = check + " " + indexList(by[check])
	}
	return " (audit on the original data: " + strings.Join(parts, "; ") + ")"
}
