package spidersql

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// This file keeps the regular-expression tokenizer that Tokenize replaced, as the oracle
// the hand-written scanner is checked against (TestTokenizeMatchesRegexCorpus,
// FuzzTokenizeMatchesRegex). It is the direct transcription of NLTK's rules: change it
// only when NLTK's behaviour is found to differ, never to make the scanner pass.

// regexPyWS is the white space Python's re module matches with \s on str patterns.
const regexPyWS = `[\t\n\v\f\r \x1c-\x1f\x85\p{Z}]`

type regexRewrite struct {
	re   *regexp.Regexp
	repl string
}

var regexTreebankRules = []regexRewrite{
	// Starting quotes: unicode opening quotes and runs of backticks stand alone.
	{regexp.MustCompile("([«“‘„]|`+)"), " $1 "},
	{regexp.MustCompile("(``)"), " $1 "},
	// Punctuation.
	{regexp.MustCompile(`([^.])(\.)([\])}>"'»”’ ]*)` + regexPyWS + `*$`), "$1 $2 $3 "},
	{regexp.MustCompile(`([:,])([^\p{Nd}])`), " $1 $2"},
	{regexp.MustCompile(`([:,])(\n?)$`), " $1 $2"}, // Python's $ also matches before a final newline
	{regexp.MustCompile(`\.{2,}`), " $0 "},
	{regexp.MustCompile(`[;@#$%&]`), " $0 "},
	{regexp.MustCompile(`([^.])(\.)([\])}>"']*)` + regexPyWS + `*$`), "$1 $2$3 "},
	{regexp.MustCompile(`[?!]`), " $0 "},
	{regexp.MustCompile(`[*]`), " $0 "},
	// Brackets, then double dashes.
	{regexp.MustCompile(`[\]\[(){}<>]`), " $0 "},
	{regexp.MustCompile(`--`), " -- "},
}

var regexClosingQuotes = regexp.MustCompile("([»”’])")

// regexWordTokenize is the former wordTokenize: NLTK's rules as regular expressions.
func regexWordTokenize(text string) []string {
	for _, r := range regexTreebankRules {
		text = r.re.ReplaceAllString(text, r.repl)
	}
	text = regexClosingQuotes.ReplaceAllString(" "+text+" ", " $1 ")
	text = splitContractions(text)
	return strings.FieldsFunc(text, pyIsSpace)
}

// regexTokenize is the former Tokenize, on regexWordTokenize.
func regexTokenize(query string) ([]string, error) {
	runes := []rune(strings.ReplaceAll(query, "'", `"`))
	var quotes []int
	for i, r := range runes {
		if r == '"' {
			quotes = append(quotes, i)
		}
	}
	if len(quotes)%2 != 0 {
		return nil, fmt.Errorf("tokenize: %w", ErrQuote)
	}
	vals := make(map[string]string, len(quotes)/2)
	var b strings.Builder
	prev := 0
	for i := 0; i+1 < len(quotes); i += 2 {
		a, z := quotes[i], quotes[i+1]
		key := fmt.Sprintf("__val_%d_%d__", a, z)
		vals[key] = string(runes[a : z+1])
		b.WriteString(string(runes[prev:a]))
		b.WriteString(key)
		prev = z + 1
	}
	b.WriteString(string(runes[prev:]))
	toks := regexWordTokenize(b.String())
	for i, t := range toks {
		t = strings.ToLower(t)
		if v, ok := vals[t]; ok {
			t = v
		}
		toks[i] = t
	}
	return regexJoinComparisons(toks), nil
}

// regexJoinComparisons is the former joinComparisons: it merges "!" "=", ">" "=", "<" "=" into one token. process_sql walks
// the "=" tokens from last to first; merges never overlap (the token before a merged "="
// is not itself "="), so one forward pass gives the same result. A "=" in first position
// is handled last, as there, and looks at the last token, like Python's toks[-1].
func regexJoinComparisons(toks []string) []string {
	if len(toks) == 0 {
		return toks
	}
	isPrefix := func(t string) bool { return t == "!" || t == ">" || t == "<" }
	out := make([]string, 0, len(toks))
	out = append(out, toks[0])
	for i := 1; i < len(toks); i++ {
		if toks[i] == "=" && isPrefix(toks[i-1]) && len(out) > 0 && out[len(out)-1] == toks[i-1] {
			out[len(out)-1] += "="
			continue
		}
		out = append(out, toks[i])
	}
	if out[0] == "=" && isPrefix(out[len(out)-1]) {
		// toks[:-1] + [last+"="] + toks[1:]
		last := out[len(out)-1]
		merged := slices.Clone(out[:len(out)-1])
		merged = append(merged, last+"=")
		out = append(merged, out[1:]...)
	}
	return out
}
