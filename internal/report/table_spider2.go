package report

import (
	"fmt"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"io"
	"text/tabwriter"
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
	fmt.Fprintf(w, "\nSpider 2.0: official (evaluate.py) vs strict, correct over judged tasks; verdicts from --spider2-mode %s\n", s.Spider2[0].Mode)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "system\ttasks\tjudged\tofficial\tstrict\tdisagree\t\n")
	for _, x := range s.Spider2 {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t\n", x.System, x.Tasks, x.Judged, x.Official, x.Strict, len(x.Disagreements))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, x := range s.Spider2 {
		if len(x.Disagreements) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s: tasks where the modes disagree\n", x.System)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "task\tbackend\tofficial\tstrict\twhy\n")
		for i, d := range x.Disagreements {
			if i == spider2Rows {
				fmt.Fprintf(tw, "... %d more in summary.json\t\t\t\t\n", len(x.Disagreements)-spider2Rows)
				break
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\n", d.QuestionID, d.Backend, d.Official, d.Strict, d.Why)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}
