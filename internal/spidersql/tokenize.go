package spidersql

import (
	"fmt"
	"slices"
	"strings"
)

// Tokenize splits a query into the tokens process_sql's parser reads: single quotes become
// double quotes; each quoted string becomes one token that keeps its quotes and its case;
// everything else is split as NLTK's word_tokenize does and lowercased; and "!", ">", "<"
// directly followed by a "=" token are joined into "!=", ">=", "<=".
func Tokenize(query string) ([]string, error) {
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
	// Replace each quoted string (consecutive quotes pair up) by a placeholder word.
	// process_sql does it last pair first, so every key names positions in the original
	// text, in code points as Python indexes strings; one forward pass gives the same text.
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
	toks := wordTokenize(b.String())
	for i, t := range toks {
		t = strings.ToLower(t)
		if v, ok := vals[t]; ok {
			t = v
		}
		toks[i] = t
	}
	return joinComparisons(toks), nil
}

// joinComparisons merges "!" "=", ">" "=", "<" "=" into one token. process_sql walks
// the "=" tokens from last to first; merges never overlap (the token before a merged "="
// is not itself "="), so one forward pass gives the same result. A "=" in first position
// is handled last, as there, and looks at the last token, like Python's toks[-1].
func joinComparisons(toks []string) []string {
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
