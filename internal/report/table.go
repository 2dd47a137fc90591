package report

import (
	"fmt"
	"io"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// writeScores is the headline table and a note on what its numbers are.
func writeScores(w io.Writer, s *rundir.Summary) error {
	t := Scores(s)
	err := writeGrid(w, scoreRows(t, true))
	fmt.Fprintf(w, "scores in %% over judged questions%s; EX under %s semantics%s\n", parenthesized(t.Excluded), SemanticsName(s), timingNote(s))
	return err
}

// writeHeadlineLegend explains the headline table's terms.
func writeHeadlineLegend(w io.Writer, s *rundir.Summary) error {
	writeLegend(w, "legend: ", headlineLegend(s, Scores(s)))
	return nil
}

func writeDifficultyTable(w io.Writer, s *rundir.Summary) error {
	d := ByDifficulty(s)
	if len(d.Rows) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nby %s (%%)\n", d.Grouping)
	return writeGrid(w, difficultyRows(d, d.Rows, []string{"system", "metric"}, "count", true))
}

func writeErrorCategories(w io.Writer, s *rundir.Summary) error {
	rows := categoryRows(s)
	if rows == nil {
		return nil
	}
	fmt.Fprintf(w, "\nerrors by category (count of predictions that failed to run)\n")
	return writeGrid(w, rows)
}

// noScores is the scores cell of a run where no metric applies.
func noScores(judged int) string {
	if judged == 0 {
		return "n/a: nothing judged"
	}
	return "n/a"
}

// timingNote names how VES and R-VES were timed, when they were.
func timingNote(s *rundir.Summary) string {
	if m := s.Manifest; m != nil && m.Settings.VES && m.Settings.Timing != "" && s.Metrics.Has("ves") {
		return "; VES and R-VES with " + m.Settings.Timing + " timing"
	}
	return ""
}

func pct(x float64) string { return fmt.Sprintf("%.2f", 100*x) }

func difficulties(systems []metrics.Summary) []string {
	if len(systems) == 0 {
		return nil
	}
	var out []string
	for _, g := range systems[0].ByDifficulty {
		if g.Counts.Judged > 0 {
			out = append(out, g.Name)
		}
	}
	if len(out) == 1 {
		return nil // one difficulty only: the overall row says it all
	}
	return out
}

func judgedIn(sys metrics.Summary, d string) int {
	for i := range sys.ByDifficulty {
		if sys.ByDifficulty[i].Name == d {
			return sys.ByDifficulty[i].Counts.Judged
		}
	}
	return 0
}
