package cli

import (
	"encoding/json"
	"io"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
)

// comparison is `compare --json`'s output: what the text prints, for programs (the Python
// package's nl2sqlbench.compare), so nothing has to parse terminal text. A and B are the
// two runs' values as their summary.json holds them; Test is the paired test (its Diff is
// A - B, as in summary.json's paired section); Change is B - A. Outcome is "regression",
// "improvement" or "no_change" at Alpha; the exit status is 3 on a regression, as without
// --json.
type comparison struct {
	System         string             `json:"system"`
	Metric         string             `json:"metric"`
	Label          string             `json:"label"`
	HigherIsBetter bool               `json:"higher_is_better"`
	Alpha          float64            `json:"alpha"`
	RunA           string             `json:"run_a"`
	RunB           string             `json:"run_b"`
	A              *metrics.Value     `json:"a"`
	B              *metrics.Value     `json:"b"`
	Test           metrics.PairedTest `json:"test"`
	Change         float64            `json:"change"`
	ChangeText     string             `json:"change_text"`
	Outcome        string             `json:"outcome"`
}

func writeComparisonJSON(w io.Writer, c comparison) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(c)
}
