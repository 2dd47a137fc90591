package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// maxListed bounds the question indexes printed per disagreement list in the terminal;
// summary.json has them all.
const maxListed = 20

// writeETM prints the ETM section of the terminal summary: ETM per difficulty and the
// questions where execution accuracy and ETM disagree (the ETM paper's Table 4). It
// prints nothing when the run computed no ETM.
func writeETM(w io.Writer, s *RunSummary) error {
	e := s.ETM
	if e == nil || len(e.Systems) == 0 {
		return nil
	}
	var diffs []string
	for _, g := range e.Systems[0].ByDifficulty {
		if g.Judged > 0 {
			diffs = append(diffs, g.Name)
		}
	}
	if len(diffs) == 1 {
		diffs = nil
	}
	fmt.Fprintf(w, "\nenhanced tree matching (etm) by difficulty, and EX/ETM disagreements\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "system\t"
	for _, d := range diffs {
		head += d + "\t"
	}
	fmt.Fprintf(tw, "%sall\tEX yes ETM no\tETM yes EX no\tetm missing\t\n", head)
	for _, sys := range e.Systems {
		fmt.Fprintf(tw, "%s\t", sys.System)
		for _, d := range diffs {
			rate := ""
			for _, g := range sys.ByDifficulty {
				if g.Name == d {
					rate = pct(g.Rate)
				}
			}
			fmt.Fprintf(tw, "%s\t", rate)
		}
		o := sys.Overall
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t\n", pct(o.Rate), o.EXOnly, o.ETMOnly, o.Missing)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, sys := range e.Systems {
		fmt.Fprintf(w, "%s: suspected EX false positives (EX yes, ETM no): %s\n", sys.System, indexList(sys.EXOnly))
		fmt.Fprintf(w, "%s: suspected EX false negatives (ETM yes, EX no): %s\n", sys.System, indexList(sys.ETMOnly))
	}
	return nil
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

// firstErr returns the first non-nil error (sections print in order either way).
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
