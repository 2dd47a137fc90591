package sqlscan

import (
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// The statement splitter engine had before this package (its own copy, kept here as the
// oracle): FirstStatement and OnlyTrivia must answer as it did.

func oldFirstStatement(query string) (first string, more bool) {
	i := 0
	n := len(query)
	for i < n {
		c := query[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			i = oldSkipQuoted(query, i, c)
		case c == '[':
			j := i + 1
			for j < n && query[j] != ']' {
				j++
			}
			i = j + 1
		case c == '-' && i+1 < n && query[i+1] == '-':
			for i < n && query[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < n && query[i+1] == '*':
			i = oldSkipBlockComment(query, i)
		case c == ';':
			return query[:i], !oldOnlyTrivia(query[i+1:])
		default:
			i++
		}
	}
	return query, false
}

// oldSkipQuoted returns the index after the quoted token starting at i; a doubled quote
// character inside is an escaped quote.
func oldSkipQuoted(s string, i int, q byte) int {
	j := i + 1
	for j < len(s) {
		if s[j] == q {
			if j+1 < len(s) && s[j+1] == q {
				j += 2
				continue
			}
			return j + 1
		}
		j++
	}
	return len(s)
}

func oldSkipBlockComment(s string, i int) int {
	j := i + 2
	for j+1 < len(s) {
		if s[j] == '*' && s[j+1] == '/' {
			return j + 2
		}
		j++
	}
	return len(s)
}

// oldOnlyTrivia reports whether s holds nothing but white space and comments.
func oldOnlyTrivia(s string) bool {
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			i = oldSkipBlockComment(s, i)
		default:
			return false
		}
	}
	return true
}

// TestTokensCover: the tokens of s cover it exactly, in order, none empty, and each kind
// starts as its definition says.
func TestTokensCover(t *testing.T) {
	for _, s := range []string{
		"", "SELECT 1", "SELECT 'a''b', \"c\"\"d\", `e`, [f g] FROM t -- x\n/* y */ WHERE a.b >= 1.5e3;",
		"'unterminated", "[unterminated", "/* unterminated", "-- no newline", "\v\f $x é1 1x.2",
	} {
		checkCover(t, s)
	}
}

func checkCover(t testing.TB, s string) {
	t.Helper()
	end := 0
	for _, tok := range All(s) {
		if tok.Start != end || tok.End <= tok.Start || tok.End > len(s) {
			t.Fatalf("%q: token %+v after offset %d", s, tok, end)
		}
		c := s[tok.Start]
		var ok bool
		switch tok.Kind {
		case Space:
			ok = strings.Trim(tok.Text(s), " \t\n\r\f") == ""
		case Comment:
			ok = strings.HasPrefix(tok.Text(s), "--") || strings.HasPrefix(tok.Text(s), "/*")
		case String:
			ok = c == '\''
		case Ident:
			ok = c == '"' || c == '`' || c == '['
		case Number:
			ok = c >= '0' && c <= '9'
		case Word:
			ok = IsWordByte(c) && !(c >= '0' && c <= '9')
		case Punct:
			ok = tok.End == tok.Start+1
		}
		if !ok {
			t.Fatalf("%q: token %q has kind %d", s, tok.Text(s), tok.Kind)
		}
		end = tok.End
	}
	if end != len(s) {
		t.Fatalf("%q: tokens end at %d, not %d", s, end, len(s))
	}
}

// TestSplitMatchesOldOnDatasets: on every SQL string of the real data, and on each one
// with a second statement and comments around it, FirstStatement and OnlyTrivia answer as
// engine's splitter did before this package. Skips without ../shared.
func TestSplitMatchesOldOnDatasets(t *testing.T) {
	corpus := testutil.SQLCorpus(t)
	for _, q := range corpus {
		for _, s := range []string{q, q + ";", q + "; -- done", q + " ;\n" + q, "/* c; */ " + q + "; /* x */"} {
			compareSplit(t, s)
		}
	}
	t.Logf("%d queries compared", len(corpus))
}

func compareSplit(t testing.TB, s string) {
	t.Helper()
	f1, m1 := FirstStatement(s)
	f0, m0 := oldFirstStatement(s)
	if f1 != f0 || m1 != m0 {
		t.Fatalf("FirstStatement(%q) = (%q, %v), the old splitter (%q, %v)", s, f1, m1, f0, m0)
	}
	if OnlyTrivia(s) != oldOnlyTrivia(s) {
		t.Fatalf("OnlyTrivia(%q) = %v, the old splitter %v", s, OnlyTrivia(s), oldOnlyTrivia(s))
	}
}

// FuzzScan: tokens cover any input, and the statement split answers as the old one.
func FuzzScan(f *testing.F) {
	for _, s := range []string{"SELECT 1; x", "SELECT 'a;''b' -- c\n; /* d */", "[a;b]; `c;d`", "/*/ ; */ x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkCover(t, s)
		compareSplit(t, s)
	})
}
