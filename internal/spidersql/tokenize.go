package spidersql

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Tokenize splits a query into the tokens process_sql's parser reads: single quotes become
// double quotes; each quoted string becomes one token that keeps its quotes and its case;
// everything else is split as NLTK's word_tokenize does and lowercased; and "!", ">", "<"
// directly followed by a "=" token are joined into "!=", ">=", "<=".
func Tokenize(query string) ([]string, error) {
	s := strings.ReplaceAll(query, "'", `"`)
	if !utf8.ValidString(s) {
		// Python reads the text as code points; a Go rune conversion turns each invalid
		// byte into U+FFFD, as the former []rune-based tokenizer did.
		s = string([]rune(s))
	}
	// Quote positions, in code points as Python indexes strings (the placeholder names
	// carry them), and in bytes.
	type quote struct{ rune, byte int }
	var quotes []quote
	if strings.IndexByte(s, '"') >= 0 {
		ri := 0
		for bi, r := range s {
			if r == '"' {
				quotes = append(quotes, quote{ri, bi})
			}
			ri++
		}
	}
	if len(quotes)%2 != 0 {
		return nil, fmt.Errorf("tokenize: %w", ErrQuote)
	}
	// Replace each quoted string (consecutive quotes pair up) by a placeholder word.
	// process_sql does it last pair first, so every key names positions in the original
	// text; one forward pass gives the same text.
	type value struct {
		key, end int // the placeholder is keys[key:end]
		text     string
	}
	var vals []value
	var keys string // the text with its placeholders, before lowercasing
	text := s
	lowered := false
	if len(quotes) > 0 {
		// An ASCII text is lowercased as it is copied (placeholders are lowercase already),
		// sparing strings.ToLower's second copy; other text is lowercased below.
		ascii := isASCII(s)
		low := func(b []byte, part string) []byte {
			if !ascii {
				return append(b, part...)
			}
			for i := 0; i < len(part); i++ {
				c := part[i]
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				b = append(b, c)
			}
			return b
		}
		vals = make([]value, 0, len(quotes)/2)
		b := make([]byte, 0, len(s)+len(quotes)*8)
		prev := 0
		for i := 0; i+1 < len(quotes); i += 2 {
			a, z := quotes[i], quotes[i+1]
			b = low(b, s[prev:a.byte])
			k := len(b)
			b = append(b, "__val_"...)
			b = strconv.AppendInt(b, int64(a.rune), 10)
			b = append(b, '_')
			b = strconv.AppendInt(b, int64(z.rune), 10)
			b = append(b, "__"...)
			vals = append(vals, value{k, len(b), s[a.byte : z.byte+1]})
			prev = z.byte + 1
		}
		b = low(b, s[prev:])
		text = string(b)
		keys = text
		lowered = ascii
	}
	// Lowercasing the text once is lowercasing each token: the case mapping goes rune by
	// rune and maps letters to letters, so no rule sees a different character class.
	if !lowered {
		text = strings.ToLower(text)
	}
	toks := wordTokenize(text)
	if len(vals) > 0 {
		for i, t := range toks {
			if strings.HasPrefix(t, "__val_") {
				for _, v := range vals {
					if keys[v.key:v.end] == t {
						toks[i] = v.text
						break
					}
				}
			}
		}
	}
	return joinComparisons(toks), nil
}

// isASCII reports whether s holds ASCII bytes only.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// joinComparisons merges "!" "=", ">" "=", "<" "=" into one token, in place. process_sql
// walks the "=" tokens from last to first; merges never overlap (the token before a
// merged "=" is not itself "="), so one forward pass gives the same result. A "=" in first
// position is handled last, as there, and looks at the last token, like Python's toks[-1].
func joinComparisons(toks []string) []string {
	if len(toks) == 0 {
		return toks
	}
	isPrefix := func(t string) bool { return t == "!" || t == ">" || t == "<" }
	n := 1
	prev := toks[0] // the token before toks[i] as it was read, not as merged
	for i := 1; i < len(toks); i++ {
		t := toks[i]
		if t == "=" && isPrefix(prev) && toks[n-1] == prev {
			toks[n-1] += "="
			prev = t
			continue
		}
		toks[n] = t
		n++
		prev = t
	}
	out := toks[:n]
	if out[0] == "=" && isPrefix(out[len(out)-1]) {
		// toks[:-1] + [last+"="] + toks[1:]
		last := out[len(out)-1]
		merged := slices.Clone(out[:len(out)-1])
		merged = append(merged, last+"=")
		out = append(merged, out[1:]...)
	}
	return out
}
