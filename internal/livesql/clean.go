package livesql

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The official default test case cleans both the prediction and the gold before
// ex_base runs them: RemoveComments, then RemoveDistinct, then RemoveRound. Each is text
// surgery that knows nothing of SQL's quotes, and each quirk below changes what runs.

// pySpace is Python's str.isspace (and re's \s on text): Unicode white space plus the
// four separators \x1c-\x1f, which Go's unicode.IsSpace leaves out.
func pySpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// pyStrip is Python's str.strip().
func pyStrip(s string) string { return strings.TrimFunc(s, pySpace) }

// RemoveComments is remove_comments on one query:
//   - /* ... */ is removed, the shortest match first, even inside a string literal;
//   - -- up to the next line break is removed, keeping the break; a -- comment on the
//     last line with no break after it stays (the official regex needs the break), and
//     so does its text, so "SELECT 1 -- x" is run as it is;
//   - a line break followed by white space and another line break becomes one line
//     break (the white space after the last of them stays);
//   - the result is stripped of white space at both ends.
func RemoveComments(sql string) string {
	var b strings.Builder
	for { // /\*.*?\*/ with DOTALL
		i := strings.Index(sql, "/*")
		if i < 0 {
			break
		}
		j := strings.Index(sql[i+2:], "*/")
		if j < 0 {
			break
		}
		b.WriteString(sql[:i])
		sql = sql[i+2+j+2:]
	}
	b.WriteString(sql)
	s := b.String()
	b.Reset()
	for { // --.*?(\r\n|\r|\n) -> \1
		i := strings.Index(s, "--")
		if i < 0 {
			break
		}
		j := strings.IndexAny(s[i+2:], "\r\n")
		if j < 0 {
			break // no line break after it: no match here, nor at any later --
		}
		k := i + 2 + j
		brk := s[k : k+1]
		if s[k] == '\r' && k+1 < len(s) && s[k+1] == '\n' {
			brk = "\r\n"
		}
		b.WriteString(s[:i])
		b.WriteString(brk)
		s = s[k+len(brk):]
	}
	b.WriteString(s)
	s = b.String()
	b.Reset()
	for i := 0; i < len(s); { // \n\s*\n+ -> \n
		if s[i] != '\n' {
			b.WriteByte(s[i])
			i++
			continue
		}
		last := -1 // the last \n of the white space run after this one
		for j := i + 1; j < len(s); {
			r, n := utf8.DecodeRuneInString(s[j:])
			if !pySpace(r) {
				break
			}
			if r == '\n' {
				last = j
			}
			j += n
		}
		b.WriteByte('\n')
		if last < 0 {
			i++
		} else {
			i = last + 1
		}
	}
	return pyStrip(b.String())
}

// RemoveDistinct is remove_distinct on one query: the query is split on single spaces
// and every piece that is exactly "distinct" in any case is dropped. So
//   - DISTINCT ON (x) loses its DISTINCT and becomes ON (x), a syntax error;
//   - COUNT(DISTINCT x) keeps it ("(DISTINCT" is not a piece), as does a DISTINCT
//     next to a line break or a tab;
//   - 'distinct' alone inside a string literal is removed too;
//   - runs of spaces are kept, one fewer where a piece was dropped between them.
func RemoveDistinct(sql string) string {
	pieces := strings.Split(sql, " ")
	kept := pieces[:0]
	for _, p := range pieces {
		// Python's lower(): no non-ASCII letter lowers to a single letter of "distinct",
		// so an ASCII comparison is exact (strings.EqualFold would take ſ for s).
		if len(p) == len("distinct") && asciiLower(p) == "distinct" {
			continue
		}
		kept = append(kept, p)
	}
	return strings.Join(kept, " ")
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// RemoveRound is remove_round on one query: each ROUND( (any case, white space allowed
// before the parenthesis) with its call is replaced by its first argument, stripped,
// until none is left. Quirks:
//   - the match is on text: MY_ROUND(x) and AROUND(x) lose their ROUND too, and so does
//     ROUND( inside a string literal;
//   - parentheses and commas are counted without regard to quotes, so ROUND(',', 2)
//     becomes a broken literal;
//   - at the first ROUND( without its closing parenthesis the surgery stops, leaving
//     every ROUND from there on;
//   - a ROUND(x, 2)::numeric or ROUND(AVG(x)) keeps the cast or the aggregate around
//     the bare argument.
func RemoveRound(sql string) string {
	for {
		start, open := findRound(sql)
		if start < 0 {
			return sql
		}
		end := firstArgEnd(sql, open+1)
		closing := matchingParen(sql, open)
		if closing < 0 {
			return sql
		}
		sql = sql[:start] + pyStrip(sql[open+1:end]) + sql[closing+1:]
	}
}

// findRound finds ROUND\s*\( (case-insensitive): where ROUND starts and where its
// parenthesis is.
func findRound(s string) (start, open int) {
	for i := 0; i+5 <= len(s); i++ {
		if asciiLower(s[i:i+5]) != "round" {
			continue
		}
		j := i + 5
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if !pySpace(r) {
				break
			}
			j += n
		}
		if j < len(s) && s[j] == '(' {
			return i, j
		}
	}
	return -1, -1
}

// firstArgEnd is find_first_arg_end: the first comma or closing parenthesis at depth 0
// from i, or the end of s.
func firstArgEnd(s string, i int) int {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return i
			}
			depth--
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return len(s)
}

// matchingParen is find_matching_paren: the parenthesis closing the one at open, or -1.
func matchingParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// CheckSQLFunctionUsage is check_sql_function_usage: 1 when every keyword appears,
// case-insensitively, anywhere in the queries joined by spaces (in a comment, in a
// string, inside a longer word), 0 otherwise and for no queries.
func CheckSQLFunctionUsage(sqls, keywords []string) int {
	if len(sqls) == 0 {
		return 0
	}
	lowered := make([]string, len(sqls))
	for i, s := range sqls {
		lowered[i] = pyLower(s)
	}
	all := strings.Join(lowered, " ")
	for _, k := range keywords {
		if !strings.Contains(all, pyLower(k)) {
			return 0
		}
	}
	return 1
}

// pyLower is Python's str.lower() but for its final-sigma rule: Go lowers İ (U+0130)
// to i, Python to i and a combining dot (U+0307).
func pyLower(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, "\u0130", "i\u0307"))
}
