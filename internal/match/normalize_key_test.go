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
		var b keyBuf
		writeQuotedKey(&b, s)
		if got, want := string(b), oracle(s); got != want {
			t.Errorf("writeQuotedKey(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestKeyLess checks the buffer comparison against comparing the printed keys.
func TestKeyLess(t *testing.T) {
	nodes := []*enode{
		nil,
		{op: eopCol, val: "t.a"},
		{op: eopCol, val: "t.ab"},
		{op: eopNum, val: "1"},
		{op: eopStr, val: "a b"},
		{op: eopBin, val: "=", kids: []*enode{{op: eopCol, val: "t.a"}, {op: eopNum, val: "1"}}},
		{op: eopBin, val: "=", kids: []*enode{{op: eopCol, val: "t.a"}}},
	}
	for _, a := range nodes {
		for _, b := range nodes {
			if got, want := keyLess(a, b), a.key() < b.key(); got != want {
				t.Errorf("keyLess(%s, %s) = %v, want %v", a.key(), b.key(), got, want)
			}
		}
	}
}
