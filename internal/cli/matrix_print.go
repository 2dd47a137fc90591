package cli

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// printMatrix prints matrix.json's summary (run.MatrixSummary computed it; report's
// WriteMatrixHTML renders the same as matrix.html) and computes no number.

// printMatrix prints the short comparison: the grid per dataset, the marginal effects,
// the best cell and the cost and latency per correct answer.
func printMatrix(w io.Writer, m *rundir.Matrix, out string) {
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
				fmt.Fprintf(w, "  each %s over the %ss:%s\n", f, other(f), line)
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
			optFloat(c.CostPerCorrect, "%.6f"), optFloat(c.LatencyPerCorrectMS, "%.0f"), optFloat(c.TokensPerCorrect, "%.0f"))
	}
	for _, x := range s.Missing {
		fmt.Fprintf(w, "not done: %s\n", x)
	}
	for _, x := range s.Warnings {
		fmt.Fprintf(w, "warning: %s\n", x)
	}
	fmt.Fprintf(w, "matrix: %s, %s\n", filepath.Join(out, rundir.MatrixFile), filepath.Join(out, rundir.MatrixHTMLFile))
}

func other(f string) string {
	if f == "pipeline" {
		return "model"
	}
	return "pipeline"
}

func optFloat(v *float64, format string) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf(format, *v)
}
