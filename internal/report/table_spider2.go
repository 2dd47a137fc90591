package report

import (
	"fmt"
	"io"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// spider2Rows bounds the disagreements printed per system (summary.json has them all).
const spider2Rows = 20

// writeSpider2Table prints, per system of a Spider 2.0 run, each mode's correct count and
// the tasks where official and strict disagree with why, from summary.json's spider2
// section. It prints nothing for other runs.
func writeSpider2Table(w io.Writer, s *rundir.Summary) error {
	if len(s.Spider2) == 0 {
		return nil
	}
	t := TextTable{Title: fmt.Sprintf("Spider 2.0: official (evaluate.py) vs strict, correct over judged tasks; verdicts from --spider2-mode %s", s.Spider2[0].Mode),
		Head: []string{"system", "tasks", "judged", "official", "strict", "disagree"}}
	for _, x := range s.Spider2 {
		t.Rows = append(t.Rows, cells(x.System, x.Tasks, x.Judged, x.Official, x.Strict, len(x.Disagreements)))
	}
	if err := writeTitled(w, t); err != nil {
		return err
	}
	for _, x := range s.Spider2 {
		if len(x.Disagreements) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s: tasks where the modes disagree\n", x.System)
		rows := [][]string{{"task", "backend", "official", "strict", "why"}}
		for i, d := range x.Disagreements {
			if i == spider2Rows {
				rows = append(rows, []string{fmt.Sprintf("... %d more in summary.json", len(x.Disagreements)-spider2Rows), "", "", "", ""})
				break
			}
			rows = append(rows, cells(d.QuestionID, d.Backend, d.Official, d.Strict, d.Why))
		}
		if err := writeWordGrid(w, rows, false); err != nil {
			return err
		}
	}
	return nil
}
