package report

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// WriteMatrix prints matrix.json's summary on the terminal (benchrun's MatrixSummary
// computed it; WriteMatrixHTML renders the same as matrix.html), computing no number:
// the grid per dataset, the marginal effects, the best cell and the cost and latency per
// correct answer; out is the matrix directory.
func WriteMatrix(w io.Writer, m *rundir.Matrix, out string) {
	s := m.Summary
	fmt.Fprintf(w, "matrix: %d of %d cells done; %s with its 95%% interval\n", len(s.Cells), len(m.Cells), s.Label)
	byName := map[string]rundir.CellResult{}
	for _, c := range s.Cells {
		byName[c.Name] = c
	}
	cellText := func(name string) string {
		c, ok := byName[name]
		if !ok {
			return "-"
		}
		return c.Text + " " + c.CIText
	}
	for _, ds := range s.Datasets {
		fmt.Fprintf(w, "\n%s\n  %-16s", ds, "")
		for _, p := range s.Pipelines {
			fmt.Fprintf(w, " %-24s", p)
		}
		fmt.Fprintln(w)
		for _, mo := range s.Models {
			fmt.Fprintf(w, "  %-16s", mo)
			for _, p := range s.Pipelines {
				fmt.Fprintf(w, " %-24s", cellText(ds+"/"+mo+"+"+p))
			}
			fmt.Fprintln(w)
		}
		for _, sys := range s.Systems {
			if _, ok := byName[ds+"/"+sys]; ok {
				fmt.Fprintf(w, "  %-16s %s (prediction file)\n", sys, cellText(ds+"/"+sys))
			}
		}
		for _, f := range []string{"pipeline", "model"} {
			line := ""
			for _, mg := range s.Marginals {
				if mg.Dataset == ds && mg.Factor == f {
					line += fmt.Sprintf("  %s %s", mg.Level, mg.Text)
				}
			}
			if line != "" {
				fmt.Fprintf(w, "  each %s over the %ss:%s\n", f, otherFactor(f), line)
			}
			for _, t := range s.Pairs {
				if t.Dataset == ds && t.Factor == f {
					fmt.Fprintf(w, "    %s\n", t.Text)
				}
			}
		}
		for _, b := range s.Best {
			if b.Dataset == ds {
				fmt.Fprintf(w, "  best: %s\n", b.Text)
			}
		}
	}
	fmt.Fprintf(w, "\n%-40s %15s %12s %12s %14s\n", "per correct answer", "correct/judged", "cost $", "latency ms", "tokens")
	for _, c := range s.Cells {
		fmt.Fprintf(w, "%-40s %15s %12s %12s %14s\n", c.Name, fmt.Sprintf("%d/%d", c.Correct, c.Judged),
			optText(c.CostPerCorrect, "%.6f"), optText(c.LatencyPerCorrectMS, "%.0f"), optText(c.TokensPerCorrect, "%.0f"))
	}
	for _, c := range s.Cells {
		if t := c.Tasks; t != nil {
			fmt.Fprintf(w, "%-40s %s\n", c.Name, cellTasksText(t))
		}
	}
	for _, x := range s.Missing {
		fmt.Fprintf(w, "not done: %s\n", x)
	}
	for _, x := range s.Warnings {
		fmt.Fprintf(w, "warning: %s\n", x)
	}
	fmt.Fprintf(w, "matrix: %s, %s\n", filepath.Join(out, rundir.MatrixFile), filepath.Join(out, rundir.MatrixHTMLFile))
}

func otherFactor(f string) string {
	if f == "pipeline" {
		return "model"
	}
	return "pipeline"
}

// cellTasksText is a task cell's scores in words: the first turns, and where the kind
// has follow-ups, theirs and BIRD-Interact's mean reward.
func cellTasksText(t *rundir.CellTasks) string {
	out := fmt.Sprintf("tasks: first turn %d/%d (%s)", t.FirstCorrect, t.FirstJudged, t.FirstText)
	if t.FollowUps {
		out += fmt.Sprintf(", follow-up %d/%d (%s)", t.FollowUpCorrect, t.FollowUpJudged, t.FollowUpText)
		if t.Reward != nil {
			out += fmt.Sprintf(", mean reward %.3f", *t.Reward)
		}
	}
	return out
}
