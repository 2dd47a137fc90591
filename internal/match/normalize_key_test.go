package match

import (
	"strings"
	"testing"
)

// TestWriteQuotedKey checks the streaming quoter against the plain formula it replaced:
// quoted, quotes doubled, only when the text holds the key's punctuation.
func TestWriteQuotedKey(t *testing.T) {
	oracle := func(s string) string {
		if strings.ContainsAny(s, "(),;:[] ") {
			return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
		}
		return s
	}
	for _, s := range []string{"", "abc", `a"b`, "a b", `"x" y`, `say "hi", "bye"`, `""`, `" "`, "t.c", "x:y"} {
		var b strings.Builder
		writeQuotedKey(&b, s)
		if got, want := b.String(), oracle(s); got != want {
			t.Errorf("writeQuotedKey(%q) = %q, want %q", s, got, want)
		}
	}
}
