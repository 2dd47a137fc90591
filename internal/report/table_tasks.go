package report

import (
	"fmt"
	"io"
	"slices"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// writeTasksTable prints TasksTables on the terminal; nothing for other runs.
func writeTasksTable(w io.Writer, s *rundir.Summary) error {
	for _, t := range TasksTables(s) {
		if err := writeTitled(w, t); err != nil {
			return err
		}
	}
	return nil
}

// TasksTables are, per system of a run of tasks on a database copy (livesql:,
// evalbench:), each phase's turns per category and difficulty with the correct rate and
// its 95% Wilson interval, and the mean reward, then what corrected mode changed: all
// from summary.json's tasks section (the terminal, Markdown and HTML print the same).
func TasksTables(s *rundir.Summary) []TextTable {
	var out []TextTable
	for _, x := range s.Tasks {
		reward := "-"
		if x.Reward != nil {
			reward = fmt.Sprintf("%.3f", *x.Reward)
		}
		caption := "% and its interval (Wilson) over the judged turns"
		// BIRD-Interact's reward weighs two phases: printed only for a kind that has a
		// follow-up (livesql:), never for EvalBench's single turns.
		if slices.ContainsFunc(x.Rows, func(r rundir.TaskRow) bool { return r.Phase == 2 }) || x.RewardN > 0 {
			caption += fmt.Sprintf("; mean reward (BIRD-Interact: 0.7 first turn + 0.3 follow-up): %s over %d tasks; %d tasks without a reward (a turn not judged)", reward, x.RewardN, x.RewardNotJudged)
		}
		t := TextTable{Title: fmt.Sprintf("%s: tasks by phase, category and difficulty (correct of judged; not judged never counted wrong)", x.System),
			Head:    []string{"phase", "category", "difficulty", "tasks", "judged", "correct", "%", "95% CI", "not judged", "not reached"},
			Caption: caption}
		for _, r := range x.Rows {
			pct, ci := "-", "-"
			if r.Rate != nil && r.Rate.Applicable {
				pct, ci = r.Rate.Text, r.Rate.CIText
			}
			t.Rows = append(t.Rows, cells(r.Phase, orAll(r.Category), orAll(r.Difficulty), r.Tasks, r.Judged, r.Correct, pct, ci, r.NotJudged, r.NotReached))
		}
		out = append(out, t)
		if len(x.Corrections) > 0 || x.ChangedToCorrect+x.ChangedToIncorrect > 0 {
			c := TextTable{Title: fmt.Sprintf("%s: --livesql-mode corrected, what each correction did (docs/tasks.md)", x.System),
				Head: []string{"correction", "turns it applied to", "verdicts it changed", "of them with others"},
				Caption: fmt.Sprintf("verdicts that differ from the official evaluator's: %d now correct, %d now incorrect (records: task_official_verdict, follow_up.official_verdict); "+
					"a change is credited to the corrections that made it: each that alone does, or, when none does alone, all that applied together (task_changed_by)",
					x.ChangedToCorrect, x.ChangedToIncorrect)}
			for _, k := range x.Corrections {
				c.Rows = append(c.Rows, cells(k.Name, k.Applied, k.Changed, k.Jointly))
			}
			out = append(out, c)
		}
	}
	return out
}

func orAll(s string) string {
	if s == "" {
		return "all"
	}
	return s
}
