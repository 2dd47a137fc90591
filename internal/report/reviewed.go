package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// ReviewedFile is `nl2sqlbench rescore`'s output in a run directory (docs/review.md).
const ReviewedFile = "reviewed.json"

// Reviewed is DIR/reviewed.json: the reviews applied and each system's EX raw and
// reviewed.
type Reviewed struct {
	Reviews string           `json:"reviews"` // the reviews file applied
	Count   int              `json:"count"`   // reviews read
	Systems []ReviewedSystem `json:"systems"`
}

// ReviewedSystem is one system's EX raw and reviewed (the registry's values).
type ReviewedSystem struct {
	System   string        `json:"system"`
	Raw      metrics.Value `json:"raw"`
	Reviewed metrics.Value `json:"reviewed"`
	Changed  []int         `json:"changed"` // question indexes whose verdict the reviews changed
}

// maxReviewedBytes caps reviewed.json (a few numbers per system).
const maxReviewedBytes = 64 << 20

// loadReviewed reads DIR/reviewed.json; nil when there is none.
func loadReviewed(dir string) (*Reviewed, string) {
	path := filepath.Join(dir, ReviewedFile)
	b, err := rundir.ReadInside(dir, ReviewedFile, maxReviewedBytes) // not a link out of the run, nor a FIFO
	if errors.Is(err, os.ErrNotExist) {
		return nil, ""
	}
	var r Reviewed
	if err == nil {
		err = json.Unmarshal(b, &r)
	}
	if err != nil {
		return nil, fmt.Sprintf("reviewed scores: %s: %v; section left out", path, err)
	}
	return &r, ""
}

// ReviewedTable puts raw and reviewed EX side by side; nil without reviewed.json.
func ReviewedTable(run *Run) []TextTable {
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
