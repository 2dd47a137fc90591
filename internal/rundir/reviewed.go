package rundir

import "github.com/nl2sqlbench/nl2sqlbench/internal/metrics"

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
