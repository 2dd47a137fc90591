package sqlscan

import "testing"

// TestQuote: a quoted identifier or string scans back as exactly one token of its kind,
// whatever quotes, brackets, semicolons or comment markers the text holds.
func TestQuote(t *testing.T) {
	for _, s := range []string{"", "plain", `say "hi"`, "it's", "a;b -- c", "/* x */", "[x]", "`y`", `""`, "''"} {
		for _, tc := range []struct {
			quoted string
			kind   Kind
		}{{QuoteIdent(s), Ident}, {QuoteString(s), String}} {
			toks := All(tc.quoted)
			if len(toks) != 1 || toks[0].Kind != tc.kind {
				t.Errorf("%q scans as %+v, want one token of kind %d", tc.quoted, toks, tc.kind)
			}
		}
	}
	if got := QuoteIdent(`a"b`); got != `"a""b"` {
		t.Errorf(`QuoteIdent(a"b) = %s`, got)
	}
	if got := QuoteString("a'b"); got != `'a''b'` {
		t.Errorf("QuoteString(a'b) = %s", got)
	}
}
