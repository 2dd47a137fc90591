package report

import (
	"fmt"
	"io"

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
		t := TextTable{Title: fmt.Sprintf("%s: tasks by phase, category and difficulty (correct of judged; not judged never counted wrong)", x.System),
			Head:    []string{"phase", "category", "difficulty", "tasks", "judged", "correct", "%", "95% CI", "not judged", "not reached"},
			Caption: fmt.Sprintf("%% and its interval (Wilson) over the judged turns; mean reward (BIRD-Interact: 0.7 first turn + 0.3 follow-up): %s over %d tasks; %d tasks without a reward (a turn not judged)", reward, x.RewardN, x.RewardNotJudged)}
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
				Head: []string{"correction", "turns it applied to", "verdicts changed"},
				Caption: fmt.Sprintf("verdicts that differ from the official evaluator's: %d now correct, %d now incorrect (records: task_official_verdict, follow_up.official_verdict)",
					x.ChangedToCorrect, x.ChangedToIncorrect)}
			for _, k := range x.Corrections {
				c.Rows = append(c.Rows, cells(k.Name, k.Applied, k.Changed))
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
