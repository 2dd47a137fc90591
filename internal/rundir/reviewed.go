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
	// Corrections is the corrections file applied as gold_wrong reviews (rescore
	// --corrections), "" when none.
	Corrections string `json:"corrections,omitempty"`
	// Moved lists the questions where any system's verdict changed.
	Moved []MovedQuestion `json:"moved,omitempty"`
}

// MovedQuestion is one question the reviews changed a verdict of: how many systems
// were right on it before and after.
type MovedQuestion struct {
	Index      int    `json:"index"`
	QuestionID string `json:"question_id"`
	GoldFixed  bool   `json:"gold_fixed"` // a gold_wrong review (or correction) replaced its gold
	// GoldError is why the corrected gold failed to run, when it did: the question is
	// then excluded (gold_error), not corrected.
	GoldError string `json:"gold_error,omitempty"`
	Before    int    `json:"correct_before"`
	After     int    `json:"correct_after"`
}

// ReviewedSystem is one system's EX raw and reviewed (the registry's values).
type ReviewedSystem struct {
	System   string        `json:"system"`
	Raw      metrics.Value `json:"raw"`
	Reviewed metrics.Value `json:"reviewed"`
	Changed  []int         `json:"changed"` // question indexes whose verdict the reviews changed
	// RankRaw and RankReviewed are the system's places by EX among the run's systems
	// (1 best; equal scores share the higher place).
	RankRaw      int `json:"rank_raw,omitempty"`
	RankReviewed int `json:"rank_reviewed,omitempty"`
	// Paired compares the system's raw and reviewed verdicts question by question
	// (exact McNemar test; a = raw, b = reviewed).
	Paired *metrics.PairedTest `json:"paired,omitempty"`
}
