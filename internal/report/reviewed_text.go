package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// WriteReviewed prints rescore's result on the terminal: where the reviews came from,
// each system's EX raw and reviewed with their intervals, ranks and paired test, and
// the questions whose verdicts moved; path is reviewed.json's.
func WriteReviewed(w io.Writer, s rundir.Reviewed, path string) error {
	from := []string{}
	if s.Reviews != "" {
		from = append(from, s.Reviews)
	}
	if s.Corrections != "" {
		from = append(from, s.Corrections+" (corrections)")
	}
	fmt.Fprintf(w, "%d reviews from %s\n", s.Count, strings.Join(from, " and "))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "system\tEX raw\tEX reviewed\trank raw\trank reviewed\tchanged\tpaired test (raw - reviewed)\t\n")
	for _, r := range s.Systems {
		paired := ""
		if r.Paired != nil {
			paired = r.Paired.Text
		}
		fmt.Fprintf(tw, "%s\t%s %s\t%s %s\t%s\t%s\t%d\t%s\t\n", r.System, r.Raw.Text, r.Raw.CIText, r.Reviewed.Text, r.Reviewed.CIText, rankOrDash(r.RankRaw), rankOrDash(r.RankReviewed), len(r.Changed), paired)
	}
	tw.Flush()
	if len(s.Moved) > 0 {
		fmt.Fprintf(w, "questions whose verdicts moved (systems right before -> after):\n")
		for _, m := range s.Moved {
			if m.GoldError != "" {
				fmt.Fprintf(w, "  #%d %s corrected gold failed to run, question excluded (right before: %d): %s\n", m.Index, m.QuestionID, m.Before, m.GoldError)
				continue
			}
			fixed := ""
			if m.GoldFixed {
				fixed = " gold corrected"
			}
			fmt.Fprintf(w, "  #%d %s%s: %d -> %d\n", m.Index, m.QuestionID, fixed, m.Before, m.After)
		}
	}
	_, err := fmt.Fprintf(w, "reviewed scores: %s\n", path)
	return err
}

func rankOrDash(k int) string {
	if k == 0 {
		return "-"
	}
	return strconv.Itoa(k)
}
