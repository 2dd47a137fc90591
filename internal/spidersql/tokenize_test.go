package spidersql

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"lowercases words, keeps string values", `SELECT Name FROM Singer WHERE Country = 'France'`,
			[]string{"select", "name", "from", "singer", "where", "country", "=", `"France"`}},
		{"double-quoted value with spaces is one token", `WHERE song_name = "Hey Jude"`,
			[]string{"where", "song_name", "=", `"Hey Jude"`}},
		{"count star", `count(*)`, []string{"count", "(", "*", ")"}},
		{"!= joined", `a != 1`, []string{"a", "!=", "1"}},
		{">= joined", `a >= 1`, []string{"a", ">=", "1"}},
		{"<= joined", `a <= 1`, []string{"a", "<=", "1"}},
		{"unspaced >= splits as NLTK does", `age>=20`, []string{"age", ">", "=20"}},
		{"unspaced = stays in the word", `a=b`, []string{"a=b"}},
		{"<> is two tokens", `a <> 1`, []string{"a", "<", ">", "1"}},
		{"comma before a letter splits", `T1.name,T2.age`, []string{"t1.name", ",", "t2.age"}},
		{"comma before a digit does not", `IN (1,2)`, []string{"in", "(", "1,2", ")"}},
		{"semicolon", `LIMIT 3;`, []string{"limit", "3", ";"}},
		{"final period split off", `FROM t.`, []string{"from", "t", "."}},
		{"inner period kept", `T1.name`, []string{"t1.name"}},
		{"decimal number", `x > 3.5`, []string{"x", ">", "3.5"}},
		{"negative number", `x > -3`, []string{"x", ">", "-3"}},
		{"NLTK contraction", `cannot`, []string{"can", "not"}},
		{"arithmetic star split", `a*b`, []string{"a", "*", "b"}},
		{"LIKE pattern value", `name LIKE '%a%'`, []string{"name", "like", `"%a%"`}},
		{"empty", ``, nil},
		{"only spaces", " \t\n ", nil},
		{"en dash is not split (NLTK up to 3.9)", "a–b", []string{"a–b"}},
		{"backticks stand alone", "`name`", []string{"`", "name", "`"}},
		{"value glued to a word is not restored", `x='a'`, []string{"x=__val_2_4__"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Tokenize(tt.in)
			if err != nil {
				t.Fatalf("Tokenize(%q): %v", tt.in, err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestTokenizeOddQuotes(t *testing.T) {
	for _, in := range []string{`name = "It's"`, `name = 'x`, `"`} {
		if _, err := Tokenize(in); !errors.Is(err, ErrQuote) || !errors.Is(err, ErrParse) {
			t.Errorf("Tokenize(%q) error = %v, want ErrQuote", in, err)
		}
	}
}

func TestJoinComparisons(t *testing.T) {
	tests := []struct{ in, want []string }{
		{[]string{"a", "!", "=", "b"}, []string{"a", "!=", "b"}},
		{[]string{"a", ">", "=", "=", "b"}, []string{"a", ">=", "=", "b"}},
		{[]string{"a", "=", "b"}, []string{"a", "=", "b"}},
		// A leading "=" looks at the last token, as Python's toks[-1] does.
		{[]string{"=", "a", "<"}, []string{"=", "a", "<=", "a", "<"}},
		{[]string{"="}, []string{"="}},
	}
	for _, tt := range tests {
		if got := joinComparisons(slices.Clone(tt.in)); !slices.Equal(got, tt.want) {
			t.Errorf("joinComparisons(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestPyIsSpaceASCII: the table-driven fast path agrees with the first definition on
// every character up to U+3000 (the last white space below the surrogates).
func TestPyIsSpaceASCII(t *testing.T) {
	for r := rune(0); r <= 0x3000; r++ {
		if pyIsSpace(r) != pyIsSpaceSlow(r) {
			t.Errorf("pyIsSpace(%U) = %v, want %v", r, pyIsSpace(r), pyIsSpaceSlow(r))
		}
	}
	for _, s := range []string{"", "abc", "a`b", "«x", "x “y”", "é‘", "„", "plain ascii ,.;"} {
		if got, want := hasStartQuote(s), strings.ContainsAny(s, "`«“‘„"); got != want {
			t.Errorf("hasStartQuote(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestMayHoldContraction: the prefilter splitContractions trusts must say yes for every
// contraction word in any ASCII case, alone and inside a text, or a word would go unsplit.
func TestMayHoldContraction(t *testing.T) {
	for _, c := range contractions {
		for _, w := range []string{c.word, strings.ToUpper(c.word), strings.ToUpper(c.word[:1]) + c.word[1:],
			c.word[:c.split] + strings.ToUpper(c.word[c.split:]), "x " + c.word + " y"} {
			if !mayHoldContraction(w) {
				t.Errorf("mayHoldContraction(%q) = false", w)
			}
		}
	}
	for _, w := range []string{"", "n", "select name from t", "nm", "n n", "canot"} {
		if mayHoldContraction(w) {
			t.Errorf("mayHoldContraction(%q) = true, want false", w)
		}
	}
}
