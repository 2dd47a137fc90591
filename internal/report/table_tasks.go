package report

import (
	"fmt"
	"io"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// writeTasksTable prints, per system of a run of tasks on a database copy (livesql:,
// evalbench:), each phase's turns per category and difficulty and the mean reward, from
// summary.json's tasks section. It prints nothing for other runs.
func writeTasksTable(w io.Writer, s *rundir.Summary) error {
	for _, x := range s.Tasks {
		reward := "-"
		if x.Reward != nil {
			reward = fmt.Sprintf("%.3f", *x.Reward)
		}
		t := TextTable{Title: fmt.Sprintf("%s: tasks by phase, category and difficulty (correct of judged; not judged never counted wrong)", x.System),
			Head:    []string{"phase", "category", "difficulty", "tasks", "judged", "correct", "%", "not judged", "not reached"},
			Caption: fmt.Sprintf("mean reward (BIRD-Interact: 0.7 first turn + 0.3 follow-up): %s over %d tasks; %d tasks without a reward (a turn not judged)", reward, x.RewardN, x.RewardNotJudged)}
		for _, r := range x.Rows {
			pct := "-"
			if r.Judged > 0 {
				pct = fmt.Sprintf("%.1f", 100*float64(r.Correct)/float64(r.Judged))
			}
			t.Rows = append(t.Rows, cells(r.Phase, orAll(r.Category), orAll(r.Difficulty), r.Tasks, r.Judged, r.Correct, pct, r.NotJudged, r.NotReached))
		}
		if err := writeTitled(w, t); err != nil {
			return err
		}
		if len(x.Corrections) > 0 || x.ChangedToCorrect+x.ChangedToIncorrect > 0 {
			c := TextTable{Title: fmt.Sprintf("%s: --livesql-mode corrected, what each correction did (docs/tasks.md)", x.System),
				Head: []string{"correction", "turns it applied to", "verdicts changed"},
				Caption: fmt.Sprintf("verdicts that differ from the official evaluator's: %d now correct, %d now incorrect (records: task_official_verdict, follow_up.official_verdict)",
					x.ChangedToCorrect, x.ChangedToIncorrect)}
			for _, k := range x.Corrections {
				c.Rows = append(c.Rows, cells(k.Name, k.Applied, k.Changed))
			}
			if err := writeTitled(w, c); err != nil {
				return err
			}
		}
	}
	return nil
}

func orAll(s string) string {
	if s == "" {
		return "all"
	}
	return s
}
