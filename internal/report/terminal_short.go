package report

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// writeShortScores is the headline table; skipped and gold_error become columns only
// when systems differ in them, otherwise the note line says them once.
func writeShortScores(w io.Writer, s *rundir.Summary) error {
	t := Scores(s)
	err := writeGrid(w, scoreRows(t, t.PerSystemExclusions()))
	fmt.Fprintf(w, "scores in %% of the judged questions%s; EX under %s semantics%s\n", parenthesized(t.Excluded), SemanticsName(s), timingNote(s))
	return err
}

// skipReason is what records not judged are called and why they were not: summary.json's
// skips section (computed from the records). A summary written before it has none: then
// a SQL run skips only questions whose database is missing, and a Spider 2.0 run skips
// tasks for several reasons (no answer submitted, a backend without an engine), which its
// summary lists and its warning prints.
func skipReason(s *rundir.Summary) (term, why string) {
	if s.Skips != nil && len(s.Skips.Reasons) > 0 {
		return cmp.Or(s.Skips.Term, rundir.SkipTermSkipped), s.Skips.Why()
	}
	term = rundir.SkipTermSkipped
	if len(s.Spider2) == 0 {
		return term, "database missing"
	}
	for _, x := range s.Spider2 {
		for reason := range x.Skipped {
			if why != "" && why != reason {
				return term, "reasons in the warning"
			}
			why = reason
		}
	}
	if why == "" {
		return term, "reasons in the warning"
	}
	return term, why
}

// excludedNote says which questions were not judged and why, when some were not: "5 of
// 6; 1 not judged: needs --task-code python".
func excludedNote(questions int, r ScoreRow, term, why string) string {
	var parts []string
	if r.Skipped > 0 {
		parts = append(parts, fmt.Sprintf("%d %s: %s", r.Skipped, term, why))
	}
	if r.GoldError > 0 {
		parts = append(parts, fmt.Sprintf("%d gold_error: the gold SQL failed", r.GoldError))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d; %s", r.Judged, questions, strings.Join(parts, ", "))
}

// parenthesized is " (x)", or "" for "".
func parenthesized(x string) string {
	if x == "" {
		return ""
	}
	return " (" + x + ")"
}

// writeEXByDifficulty prints the difficulty table's EX rows. With three systems or more
// the comparisons take its place (--details prints it), keeping the answer on one screen.
func writeEXByDifficulty(w io.Writer, s *rundir.Summary) error {
	if len(s.Systems) > 2 && s.VsBest != nil {
		return nil
	}
	d := ByDifficulty(s)
	var rows []DifficultyRow
	for _, r := range d.Rows {
		if r.Metric == "ex" {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	return writeGrid(w, difficultyRows(d, rows, []string{fmt.Sprintf("EX by %s (%%)", d.Grouping)}, "questions", false))
}

// writeErrorLines says in one line how many predictions failed to run and why (by error
// category for one system; the counts per system for several, their categories being in
// --details).
func writeErrorLines(w io.Writer, s *rundir.Summary) error {
	fmt.Fprintln(w)
	if len(s.Systems) == 1 {
		c := s.Systems[0].Overall.Counts
		var cats []string
		for _, cat := range record.Categories {
			if n := c.Categories[cat]; n > 0 {
				cats = append(cats, fmt.Sprintf("%s %d", cat, n))
			}
		}
		detail := ""
		if len(cats) > 0 {
			detail = ": " + strings.Join(cats, ", ")
		}
		fmt.Fprintf(w, "failed to run (error): %d of %d%s\n", c.Error, c.Judged, detail)
		return nil
	}
	var parts []string
	for _, sys := range s.Systems {
		c := sys.Overall.Counts
		parts = append(parts, fmt.Sprintf("%s %d of %d", sys.System, c.Error, c.Judged))
	}
	fmt.Fprintf(w, "failed to run (error): %s; by category with --details\n", strings.Join(parts, ", "))
	return nil
}
