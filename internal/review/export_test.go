package review

// Helpers only this package's tests use, kept out of the build.

import "strings"

// SameQuestion reports whether two question texts are the same but for surrounding and
// repeated whitespace.
func SameQuestion(a, b string) bool {
	return strings.Join(strings.Fields(a), " ") == strings.Join(strings.Fields(b), " ")
}
