package spidersql

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file reproduces the splitting done by NLTK's word_tokenize (NLTKWordTokenizer as
// released in NLTK 3.5 to 3.9; a dash rule added in late 2025 is left out), which
// process_sql runs on the query after replacing every quoted string by a placeholder.
// Rules that only fire on quote characters are left out: none can remain at that point
// (single quotes became double quotes, and every double quote was in a replaced pair).
// Punkt sentence splitting, which word_tokenize runs first, is not reproduced: it only
// matters when a sentence ends inside the query ("." "?" or "!" followed by white space),
// which well-formed SQL does not do.

// pyWS is the white space Python's re module matches with \s on str patterns.
const pyWS = `[\t\n\v\f\r \x1c-\x1f\x85\p{Z}]`

type rewrite struct {
	re   *regexp.Regexp
	repl string
}

var treebankRules = []rewrite{
	// Starting quotes: unicode opening quotes and runs of backticks stand alone.
	{regexp.MustCompile("([«“‘„]|`+)"), " $1 "},
	{regexp.MustCompile("(``)"), " $1 "},
	// Punctuation.
	{regexp.MustCompile(`([^.])(\.)([\])}>"'»”’ ]*)` + pyWS + `*$`), "$1 $2 $3 "},
	{regexp.MustCompile(`([:,])([^\p{Nd}])`), " $1 $2"},
	{regexp.MustCompile(`([:,])(\n?)$`), " $1 $2"}, // Python's $ also matches before a final newline
	{regexp.MustCompile(`\.{2,}`), " $0 "},
	{regexp.MustCompile(`[;@#$%&]`), " $0 "},
	{regexp.MustCompile(`([^.])(\.)([\])}>"']*)` + pyWS + `*$`), "$1 $2$3 "},
	{regexp.MustCompile(`[?!]`), " $0 "},
	{regexp.MustCompile(`[*]`), " $0 "},
	// Brackets, then double dashes.
	{regexp.MustCompile(`[\]\[(){}<>]`), " $0 "},
	{regexp.MustCompile(`--`), " -- "},
}

var closingQuotes = regexp.MustCompile("([»”’])")

// contractions are the words NLTK splits in two (those needing an apostrophe cannot occur
// here). NLTK matches them with \b on both sides, "wanna" only before white space.
var contractions = []struct {
	word    string
	split   int  // length of the first part
	wantsWS bool // must be followed by white space (NLTK's (?=\s))
}{
	{"cannot", 3, false}, {"gimme", 3, false}, {"gonna", 3, false},
	{"gotta", 3, false}, {"lemme", 3, false}, {"wanna", 3, true},
}

// splitContractions does what NLTK's contraction rules do. It is written out by hand
// because Python's \b is Unicode-aware and RE2's is ASCII-only: "écannot" is one word.
func splitContractions(text string) string {
	for _, c := range contractions {
		var b strings.Builder
		lower := asciiLower(text)
		pos := 0
		for {
			j := strings.Index(lower[pos:], c.word)
			if j < 0 {
				break
			}
			start, end := pos+j, pos+j+len(c.word)
			before, _ := utf8.DecodeLastRuneInString(text[:start])
			after, _ := utf8.DecodeRuneInString(text[end:])
			ok := start == 0 || !pyWordRune(before)
			if c.wantsWS {
				ok = ok && end < len(text) && pyIsSpace(after)
			} else {
				ok = ok && (end == len(text) || !pyWordRune(after))
			}
			if !ok {
				b.WriteString(text[pos : start+1])
				pos = start + 1
				continue
			}
			b.WriteString(text[pos:start])
			b.WriteString(" " + text[start:start+c.split] + " " + text[start+c.split:end] + " ")
			pos = end
		}
		b.WriteString(text[pos:])
		text = b.String()
	}
	return text
}

// asciiLower lowercases ASCII letters only, keeping byte offsets. The contraction words
// hold no letter that Python's case-insensitive matching pairs with a non-ASCII one.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// pyWordRune is Python's \w on str: letters, numbers and "_".
func pyWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// wordTokenize splits text as NLTK's word_tokenize does (see the file comment).
func wordTokenize(text string) []string {
	for _, r := range treebankRules {
		text = r.re.ReplaceAllString(text, r.repl)
	}
	text = closingQuotes.ReplaceAllString(" "+text+" ", " $1 ")
	text = splitContractions(text)
	return strings.FieldsFunc(text, pyIsSpace)
}

// pyIsSpace is Python's str.isspace for one character (str.split's separator).
func pyIsSpace(r rune) bool {
	if r >= 0x1c && r <= 0x1f {
		return true
	}
	return unicode.IsSpace(r)
}
