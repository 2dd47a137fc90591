package report

import (
	"fmt"
	"strconv"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// ReviewedTable puts raw and reviewed EX side by side; nil without reviewed.json.
func ReviewedTable(run *rundir.Run) []TextTable {
	if run.Reviewed == nil {
		return nil
	}
	from := run.Reviewed.Reviews
	if c := run.Reviewed.Corrections; c != "" {
		if from != "" {
			from += " and "
		}
		from += c + " (corrected golds)"
	}
	// EX raw and reviewed stay the first two score columns (the dashboard's browser test
	// and readers of the page find them there).
	t := TextTable{Title: "Reviewed scores: EX raw and after human review (%)",
		Caption: fmt.Sprintf("%d reviews from %s applied by nl2sqlbench rescore (docs/review.md); 95%% Wilson intervals; rank 1 is best, ties share a place; paired: exact McNemar test of the system's raw against its reviewed verdicts.", run.Reviewed.Count, from),
		Head:    []string{"system (reviewed)", "EX raw", "EX reviewed", "rank raw", "rank reviewed", "verdicts changed", "paired (raw - reviewed)"}}
	for _, s := range run.Reviewed.Systems {
		paired := ""
		if s.Paired != nil {
			paired = s.Paired.Text
		}
		t.Rows = append(t.Rows, []string{s.System, withCI(&s.Raw), withCI(&s.Reviewed), place(s.RankRaw), place(s.RankReviewed), strconv.Itoa(len(s.Changed)), paired})
	}
	out := []TextTable{t}
	if len(run.Reviewed.Moved) > 0 {
		m := TextTable{Title: "Reviewed scores: questions whose verdicts moved",
			Caption: "Systems right on the question before and after the reviews; gold corrected: a gold_wrong review or correction replaced its gold.",
			Head:    []string{"#", "question", "gold corrected", "right before", "right after"}}
		for _, q := range run.Reviewed.Moved {
			fixed := ""
			switch {
			case q.GoldError != "":
				fixed = "failed to run: excluded"
			case q.GoldFixed:
				fixed = "yes"
			}
			m.Rows = append(m.Rows, []string{strconv.Itoa(q.Index), q.QuestionID, fixed, strconv.Itoa(q.Before), strconv.Itoa(q.After)})
		}
		out = append(out, m)
	}
	return out
}

// place prints a rank ("-" for none: a system without a value).
func place(k int) string {
	if k == 0 {
		return "-"
	}
	return strconv.Itoa(k)
}
