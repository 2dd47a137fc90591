package rundir

import (
	"fmt"
	"strings"
)

// Skips says why records were not judged (verdict skipped): what the outputs call them
// and each reason with its count. Computed once from the records (internal/benchrun,
// skips.go), for the first system, whose counts the one-line caption prints (it prints
// them only when every system skipped as many); absent when nothing was skipped and in
// runs written before it (outputs then fall back on the reasons they knew).
type Skips struct {
	// Term is what outputs call such records: "skipped" (a question whose database is
	// missing, a Spider 2.0 task without an answer or an engine) or "not judged" (a task
	// turn waiting for what the run was not asked to do, such as --task-code python).
	Term string `json:"term"`
	// Reasons, most frequent first (then by reason).
	Reasons []SkipReason `json:"reasons"`
}

// SkipReason is one reason records were not judged and how many.
type SkipReason struct {
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

// Skip terms.
const (
	SkipTermSkipped   = "skipped"
	SkipTermNotJudged = "not judged"
)

// Why is the reasons as one phrase, for a caption or a warning: the reason when there is
// one ("needs --task-code python"), else each with its count ("no prediction 3, needs
// BigQuery 1").
func (s *Skips) Why() string {
	if len(s.Reasons) == 1 {
		return s.Reasons[0].Reason
	}
	parts := make([]string, len(s.Reasons))
	for i, r := range s.Reasons {
		parts[i] = fmt.Sprintf("%s %d", r.Reason, r.Count)
	}
	return strings.Join(parts, ", ")
}
