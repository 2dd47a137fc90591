package spidersql

import (
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// This file reproduces the splitting done by NLTK's word_tokenize (NLTKWordTokenizer as
// released in NLTK 3.5 to 3.9; a dash rule added in late 2025 is left out), which
// process_sql runs on the query after replacing every quoted string by a placeholder.
// Rules that only fire on quote characters are left out: none can remain at that point
// (single quotes became double quotes, and every double quote was in a replaced pair).
// Punkt sentence splitting, which word_tokenize runs first, is not reproduced: it only
// matters when a sentence ends inside the query ("." "?" or "!" followed by white space),
// which well-formed SQL does not do.
//
// NLTK applies its rules as regular-expression substitutions, one after another. They are
// written out here as hand-written scans, because the regular expressions cost a seventh
// of a whole evaluation's CPU. Each scan does exactly what its rule's substitution does
// (leftmost, non-overlapping matches); the regular expressions themselves are kept in
// tokenize_oracle_test.go, and the scans are checked against them on every Spider and
// BIRD query and by FuzzTokenizeMatchesRegex. Consecutive rules that only put spaces
// around characters of disjoint sets are done in one scan: a space is in none of the sets,
// so neither rule sees what the other inserted.

// isPyWS is the white space Python's re module matches with \s on str patterns:
// [\t\n\v\f\r \x1c-\x1f\x85\p{Z}].
func isPyWS(r rune) bool {
	switch {
	case r == ' ', '\t' <= r && r <= '\r', 0x1c <= r && r <= 0x1f, r == 0x85:
		return true
	case r < 0x80:
		return false
	}
	return unicode.Is(unicode.Z, r)
}

// wordTokenize splits text as NLTK's word_tokenize does (see the file comment). text is
// valid UTF-8 (Tokenize makes it so).
func wordTokenize(text string) []string {
	text = tokenizeRules(text)
	return splitFields(splitContractions(text))
}

// tokenizeRules runs NLTK's substitutions on text and returns the result framed by one
// space on each side (the closing-quote rule's " "+text+" ").
func tokenizeRules(text string) string {
	b := make([]byte, 0, len(text)+len(text)/2+8)
	// Starting quotes: «“‘„ stand alone; a run of backticks stands alone, then splits in
	// pairs ("(``)"): n backticks become " " + n/2 times " `` " + a lone one if odd + " ".
	if hasStartQuote(text) {
		for i := 0; i < len(text); {
			r, size := utf8.DecodeRuneInString(text[i:])
			switch r {
			case '«', '“', '‘', '„':
				b = append(b, ' ')
				b = append(b, text[i:i+size]...)
				b = append(b, ' ')
				i += size
			case '`':
				j := i
				for j < len(text) && text[j] == '`' {
					j++
				}
				b = append(b, ' ')
				n := j - i
				for ; n >= 2; n -= 2 {
					b = append(b, " `` "...)
				}
				if n == 1 {
					b = append(b, '`')
				}
				b = append(b, ' ')
				i = j
			default:
				b = append(b, text[i:i+size]...)
				i += size
			}
		}
		text, b = string(b), b[:0]
	}
	// ([^.])(\.)([\])}>"'»”’ ]*)\s*$  ->  "$1 $2 $3 "
	if s, ok := finalPeriod(text, "])}>\"'»”’ ", " . "); ok {
		text = s
	}
	// ([:,])([^\p{Nd}])  ->  " $1 $2"
	if strings.ContainsAny(text, ":,") {
		changed := false
		for i := 0; i < len(text); {
			c := text[i]
			if c == ':' || c == ',' {
				if i+1 < len(text) {
					r, size := utf8.DecodeRuneInString(text[i+1:])
					if !unicode.Is(unicode.Nd, r) {
						b = append(b, ' ', c, ' ')
						b = append(b, text[i+1:i+1+size]...)
						i += 1 + size
						changed = true
						continue
					}
				}
			}
			b = append(b, c)
			i++
		}
		if changed {
			text = string(b)
		}
		b = b[:0]
	}
	// ([:,])(\n?)$  ->  " $1 $2" (RE2's $ is the end of the text only)
	if n := len(text); n >= 2 && (text[n-2] == ':' || text[n-2] == ',') && text[n-1] == '\n' {
		text = text[:n-2] + " " + text[n-2:n-1] + " \n"
	} else if n >= 1 && (text[n-1] == ':' || text[n-1] == ',') {
		text = text[:n-1] + " " + text[n-1:] + " "
	}
	// \.{2,} -> " $0 ", then [;@#$%&] -> " $0 ".
	if strings.ContainsAny(text, ".;@#$%&") {
		changed := false
		for i := 0; i < len(text); {
			switch c := text[i]; c {
			case '.':
				j := i + 1
				for j < len(text) && text[j] == '.' {
					j++
				}
				if j-i >= 2 {
					b = append(b, ' ')
					b = append(b, text[i:j]...)
					b = append(b, ' ')
					changed = true
				} else {
					b = append(b, '.')
				}
				i = j
			case ';', '@', '#', '$', '%', '&':
				b = append(b, ' ', c, ' ')
				changed = true
				i++
			default:
				b = append(b, c)
				i++
			}
		}
		if changed {
			text = string(b)
		}
		b = b[:0]
	}
	// ([^.])(\.)([\])}>"']*)\s*$  ->  "$1 $2$3 "
	if s, ok := finalPeriod(text, "])}>\"'", " ."); ok {
		text = s
	}
	// [?!] [*] [\]\[(){}<>] -> " $0 ", then -- -> " -- ", then the closing quotes
	// ([»”’]) -> " $1 " on " "+text+" ".
	b = append(b, ' ')
	for i := 0; i < len(text); {
		c := text[i]
		switch c {
		case '?', '!', '*', ']', '[', '(', ')', '{', '}', '<', '>':
			b = append(b, ' ', c, ' ')
			i++
			continue
		case '-':
			if i+1 < len(text) && text[i+1] == '-' {
				b = append(b, " -- "...)
				i += 2
				continue
			}
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(text[i:])
			if r == '»' || r == '”' || r == '’' {
				b = append(b, ' ')
				b = append(b, text[i:i+size]...)
				b = append(b, ' ')
			} else {
				b = append(b, text[i:i+size]...)
			}
			i += size
			continue
		}
		b = append(b, c)
		i++
	}
	b = append(b, ' ')
	// b is not written again: the string can share its bytes instead of copying them (as
	// strings.Builder.String does).
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// hasStartQuote is strings.ContainsAny(text, "`«“‘„") without its slow path for a
// non-ASCII set on the usual all-ASCII text: every one of those but the backtick is
// encoded with bytes >= 0x80.
func hasStartQuote(text string) bool {
	for i := 0; i < len(text); i++ {
		if c := text[i]; c == '`' || c >= utf8.RuneSelf {
			return strings.ContainsAny(text[i:], "`«“‘„")
		}
	}
	return false
}

// finalPeriod is NLTK's rule for a period that ends the text:
// ([^.])(\.)([closers]*)\s*$ replaced by "$1" + mid + "$3 ". Only the last period can
// match (what follows it may hold no period), and only when the character before it is
// not a period; what follows must be a run of closers (the longest: the star is greedy)
// and then white space only, which the replacement drops.
func finalPeriod(text, closers, mid string) (string, bool) {
	p := strings.LastIndexByte(text, '.')
	if p <= 0 || text[p-1] == '.' {
		return "", false
	}
	m := p + 1
	for m < len(text) {
		r, size := utf8.DecodeRuneInString(text[m:])
		if !strings.ContainsRune(closers, r) {
			break
		}
		m += size
	}
	for i := m; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isPyWS(r) {
			return "", false
		}
		i += size
	}
	return text[:p] + mid + text[p+1:m] + " ", true
}

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
	if !mayHoldContraction(text) {
		return text
	}
	lower := asciiLower(text)
	for _, c := range contractions {
		if !strings.Contains(lower, c.word) {
			continue // the common case: nothing to split, nothing to copy
		}
		var b strings.Builder
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
		lower = asciiLower(text)
	}
	return text
}

// mayHoldContraction is false when text holds none of the contraction words in any ASCII
// case: each of them has a doubled "n", "m" or "t", which most queries lack, and one scan
// for those is cheaper than a search for each word.
func mayHoldContraction(text string) bool {
	for i := 1; i < len(text); i++ {
		if c := text[i] | 0x20; (c == 'n' || c == 'm' || c == 't') && text[i-1]|0x20 == c {
			return true
		}
	}
	return false
}

// asciiLower lowercases ASCII letters only, keeping byte offsets. The contraction words
// hold no letter that Python's case-insensitive matching pairs with a non-ASCII one.
func asciiLower(s string) string {
	i := 0
	for i < len(s) && !('A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if c := b[i]; 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// pyWordRune is Python's \w on str: letters, numbers and "_".
func pyWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// splitFields is strings.FieldsFunc(text, pyIsSpace) with one allocation for the slice.
func splitFields(text string) []string {
	n := 0
	in := false
	for _, r := range text {
		sp := pyIsSpace(r)
		if !sp && !in {
			n++
		}
		in = !sp
	}
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	start := -1
	for i, r := range text {
		if pyIsSpace(r) {
			if start >= 0 {
				out = append(out, text[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, text[start:])
	}
	return out
}

// pyIsSpace is Python's str.isspace for one character (str.split's separator).
func pyIsSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiSpace[r]
	}
	return unicode.IsSpace(r)
}

// asciiSpace is pyIsSpace for the ASCII characters: \t \n \v \f \r, 0x1c-0x1f and space.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true,
	0x1c: true, 0x1d: true, 0x1e: true, 0x1f: true, ' ': true}
