package judge

// Helpers only this package's tests use, kept out of the build.

import (
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// SoftF1 is Soft-F1 of pred against gold (SoftF1Gold.Score), the form the tests use.
func SoftF1(pred, gold *engine.Result) float64 { return NewSoftF1Gold(gold).Score(pred) }

// nameSimilarity is the stage-1 ratio (0..100) between two column names.
func nameSimilarity(a, b string) float64 {
	ra := []rune(strings.ToLower(strings.TrimSpace(a)))
	rb := []rune(strings.ToLower(strings.TrimSpace(b)))
	if len(ra)+len(rb) == 0 {
		return 100
	}
	return 200 * float64(lcsLen(ra, rb)) / float64(len(ra)+len(rb))
}
