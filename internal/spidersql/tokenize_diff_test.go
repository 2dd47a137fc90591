package spidersql

import (
	"errors"
	"slices"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// checkTokenizeMatchesRegex fails when Tokenize and the regular-expression oracle differ
// on in, in tokens or in error.
func checkTokenizeMatchesRegex(tb testing.TB, in string) {
	tb.Helper()
	got, gotErr := Tokenize(in)
	want, wantErr := regexTokenize(in)
	if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && !errors.Is(gotErr, ErrQuote)) {
		tb.Fatalf("Tokenize(%q): error %v, oracle %v", in, gotErr, wantErr)
	}
	if !slices.Equal(got, want) {
		tb.Fatalf("Tokenize(%q)\n got %q\nwant %q", in, got, want)
	}
}

// TestTokenizeMatchesRegexCorpus: the hand-written tokenizer gives the regular-expression
// tokenizer's tokens on every SQL string of the real data (Spider and BIRD gold and
// predictions).
func TestTokenizeMatchesRegexCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole query corpus is slow for -short; go test ./... runs it")
	}
	corpus := testutil.SQLCorpus(t)
	for _, in := range corpus {
		checkTokenizeMatchesRegex(t, in)
	}
	t.Logf("%d SQL strings compared", len(corpus))
}

// TestTokenizeMatchesRegexEdges covers each rule's corners, which the real queries rarely
// reach.
func TestTokenizeMatchesRegexEdges(t *testing.T) {
	for _, in := range []string{
		"", " ", "a.", "a. ", "a.)", "a.) ", "a.)\t", "a.)x", "a..", "..", ".", "a.\u2028", "a.\u00a0)",
		"a.”", "a.” ", "a.»’ ", "a. ) ", "a.\t) ", "x.y.", "a.b", "«a»", "“a”", "‘a’ „b", "`a`", "``a``",
		"```", "````x`", "a,", "a,\n", "a:\n", "a,b", "a,1", "a,٣", ",,a", ",:", "a:", "a..b", "a...",
		"a;b@c#d$e%f&g", "a?b!c*d", "[a]{b}<c>(d)", "a--b", "a---b", "----", "cannot", "Cannot x",
		"wanna ", "wanna", "wanna?", "écannot", "gonna_x", "x'y'z", `"a" "b"`, "'a''b'", "__VAL_0_2__ 'x'",
		"a != b", "a >= b", "= a <", "=", "a !=", "\x1c a", "a\x85b", "a\u3000b", "\xff'a'", "'\xff'",
		"a.\xff", "tab\t.", "a.\n", "a.\n\n", "a.)\n ", "a:\n\n", ",\n",
		// Lowercasing fused with the placeholder pass (ASCII) or done after it (not ASCII).
		"SELECT Name FROM T WHERE A = 'MiXeD' AND B = \"Up\" ORDER BY Z", "'A'", "X'A'Y", "É = 'Àb' AND C",
		"a = 'É' AND B", "CANNOT 'X' GONNA", "'\xff' AND B", "__VAL_0_2__ 'x' __val_0_2__",
		// Contractions in any case, and near-misses of the doubled-letter prefilter.
		"CanNot", "GIMME x", "LeMMe", "goTTa", "WANNA x", "x nn mm tt", "canot", "gima",
	} {
		checkTokenizeMatchesRegex(t, in)
	}
}
