// Package sqlscan splits SQL text into tokens with their byte positions, knowing SQLite's
// quoting ('...', "...", `...`, [...]) and comments (-- and /* */) once for every package
// that reads a query's text without parsing it: splitting statements (engine), finding a
// query's top-level clauses (audit), comparing two texts (judge), laying a query out
// (report) and reading a CREATE TABLE's column definitions (counterex).
//
// It is lenient: every byte belongs to exactly one token, an unterminated quote or block
// comment runs to the end, and nothing is an error. QuoteIdent and QuoteString are the
// one SQLite quoting of an identifier and of a string literal. MaxAnalysed is the longest
// query the parsers (sqlast, spidersql) analyse, declared here so both share one number.
package sqlscan

import "strings"

// Kind is what a token is.
type Kind uint8

const (
	Space   Kind = iota // a run of SQLite's white space: space, \t, \n, \r, \f (not \v)
	Comment             // -- up to (not including) the newline, or /* ... */
	String              // '...', a doubled quote inside is an escaped quote
	Ident               // a quoted identifier: "..." or `...` (doubled quote escaped) or [...]
	Word                // an identifier or keyword: letters, digits, _, $ and bytes >= 0x80, not starting with a digit
	Number              // a digit followed by word bytes and dots (1, 2.5, 1e3, 0x1F)
	Punct               // any other single byte
)

// Token is one lexical unit: its kind and the byte span s[Start:End] of the text scanned.
type Token struct {
	Kind       Kind
	Start, End int
}

// Text is the token's text in s, the string it was scanned from.
func (t Token) Text(s string) string { return s[t.Start:t.End] }

// Trivia reports whether the token is white space or a comment.
func (t Token) Trivia() bool { return t.Kind == Space || t.Kind == Comment }

// IsSpace reports whether c is SQLite's white space.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// IsWordByte reports whether c can be part of an identifier or keyword.
func IsWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// Next returns the token that starts at byte i of s (i < len(s)).
func Next(s string, i int) Token {
	n := len(s)
	c := s[i]
	switch {
	case IsSpace(c):
		j := i + 1
		for j < n && IsSpace(s[j]) {
			j++
		}
		return Token{Space, i, j}
	case c == '-' && i+1 < n && s[i+1] == '-':
		j := i + 2
		for j < n && s[j] != '\n' {
			j++
		}
		return Token{Comment, i, j}
	case c == '/' && i+1 < n && s[i+1] == '*':
		for j := i + 2; j+1 < n; j++ {
			if s[j] == '*' && s[j+1] == '/' {
				return Token{Comment, i, j + 2}
			}
		}
		return Token{Comment, i, n}
	case c == '\'':
		return Token{String, i, quotedEnd(s, i, c)}
	case c == '"' || c == '`':
		return Token{Ident, i, quotedEnd(s, i, c)}
	case c == '[':
		j := i + 1
		for j < n && s[j] != ']' {
			j++
		}
		return Token{Ident, i, min(j+1, n)}
	case c >= '0' && c <= '9':
		j := i + 1
		for j < n && (IsWordByte(s[j]) || s[j] == '.') {
			j++
		}
		return Token{Number, i, j}
	case IsWordByte(c):
		j := i + 1
		for j < n && IsWordByte(s[j]) {
			j++
		}
		return Token{Word, i, j}
	}
	return Token{Punct, i, i + 1}
}

// quotedEnd is the index after the quoted token starting at i; a doubled quote character
// inside is an escaped one.
func quotedEnd(s string, i int, q byte) int {
	for j := i + 1; j < len(s); j++ {
		if s[j] == q {
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(s)
}

// All returns every token of s, white space and comments included, in order; their spans
// cover s exactly.
func All(s string) []Token {
	var out []Token
	for i := 0; i < len(s); {
		t := Next(s, i)
		out = append(out, t)
		i = t.End
	}
	return out
}

// Code returns the tokens of s that are neither white space nor comments.
func Code(s string) []Token {
	var out []Token
	for i := 0; i < len(s); {
		t := Next(s, i)
		if !t.Trivia() {
			out = append(out, t)
		}
		i = t.End
	}
	return out
}

// OnlyTrivia reports whether s holds nothing but white space and comments.
func OnlyTrivia(s string) bool {
	for i := 0; i < len(s); {
		t := Next(s, i)
		if !t.Trivia() {
			return false
		}
		i = t.End
	}
	return true
}

// FirstStatement returns the text of s before the first semicolon outside quotes and
// comments (all of s when there is none), and whether anything other than white space
// and comments follows that semicolon.
func FirstStatement(s string) (first string, more bool) {
	for i := 0; i < len(s); {
		t := Next(s, i)
		if t.Kind == Punct && s[i] == ';' {
			return s[:i], !OnlyTrivia(s[i+1:])
		}
		i = t.End
	}
	return s, false
}

// QuoteIdent quotes name as an SQLite identifier: in double quotes, a double quote inside
// doubled, so any name (a keyword, one with spaces or quotes) reads back as itself.
func QuoteIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// QuoteString writes s as an SQL string literal: in single quotes, a single quote inside
// doubled.
func QuoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
