package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/match"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// maxListed bounds the question indexes printed per disagreement list in the terminal;
// summary.json has them all.
const maxListed = 20

// writeETM prints where execution accuracy and ETM disagree (the ETM paper's Table 4),
// from summary.json's etm section; ETM itself is in the score tables. It prints nothing
// when the run computed no ETM.
func writeETM(w io.Writer, s *rundir.Summary) error {
	e := s.ETM
	if e == nil || len(e.Systems) == 0 {
		return nil
	}
	t := TextTable{Title: "EX/ETM disagreements (questions)", Head: []string{"system", "EX yes ETM no", "ETM yes EX no", "etm missing"}}
	for _, sys := range e.Systems {
		o := sys.Overall
		t.Rows = append(t.Rows, cells(sys.System, o.EXOnly, o.ETMOnly, o.Missing))
	}
	if err := writeTitled(w, t); err != nil {
		return err
	}
	for _, sys := range e.Systems {
		fmt.Fprintf(w, "%s: suspected EX false positives (EX yes, ETM no): %s\n", sys.System, indexList(sys.EXOnly))
		fmt.Fprintf(w, "%s: suspected EX false negatives (ETM yes, EX no): %s\n", sys.System, indexList(sys.ETMOnly))
	}
	writeLegend(w, "legend: ", []string{"#n = the question's index in the dataset (records.jsonl \"index\")",
		"etm missing = EX judged but ETM could not be computed"})
	return writeETMModeDiffs(w, e)
}

// writeETMModeDiffs lists (--etm-mode corrected) the questions where the official mode,
// the ETM authors' script, gives another verdict, with the script quirk that decided;
// from summary.json's etm.systems[].mode_diffs. Nothing when there are none.
func writeETMModeDiffs(w io.Writer, e *match.ETMSummary) error {
	n := 0
	for _, sys := range e.Systems {
		n += len(sys.ModeDiffs)
	}
	if n == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nETM %s vs official (the authors' script): %s differ\n", e.Mode, plural(n, "question"))
	rows := [][]string{{"system", "question", "etm", "official", "rule that decided"}}
	for _, sys := range e.Systems {
		for _, d := range sys.ModeDiffs {
			rows = append(rows, cells(sys.System, "#"+fmt.Sprint(d.Index), d.ETM, d.Official, d.Rule))
		}
	}
	return writeWordGrid(w, rows, false)
}

func indexList(xs []int) string {
	if len(xs) == 0 {
		return "none"
	}
	var b strings.Builder
	for i, x := range xs {
		if i == maxListed {
			fmt.Fprintf(&b, " ... (%d more in summary.json)", len(xs)-maxListed)
			break
		}
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "#%d", x)
	}
	return b.String()
}
