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
	t := TextTable{Title: "Reviewed scores: EX raw and after human review (%)",
		Caption: fmt.Sprintf("%d reviews from %s applied by nl2sqlbench rescore (docs/review.md); 95%% Wilson intervals.", run.Reviewed.Count, run.Reviewed.Reviews),
		Head:    []string{"system (reviewed)", "EX raw", "EX reviewed", "verdicts changed"}}
	for _, s := range run.Reviewed.Systems {
		t.Rows = append(t.Rows, []string{s.System, withCI(&s.Raw), withCI(&s.Reviewed), strconv.Itoa(len(s.Changed))})
	}
	return []TextTable{t}
}
