package judge

// Helpers only this package's tests use, kept out of the build.

import "strings"

// nameSimilarity is the stage-1 ratio (0..100) between two column names.
func nameSimilarity(a, b string) float64 {
	ra := []rune(strings.ToLower(strings.TrimSpace(a)))
	rb := []rune(strings.ToLower(strings.TrimSpace(b)))
	if len(ra)+len(rb) == 0 {
		return 100
	}
	return 200 * float64(lcsLen(ra, rb)) / float64(len(ra)+len(rb))
}
