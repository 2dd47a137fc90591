package engine

// singleStatement is the one statement an engine that splits as SQLite does will run:
// query's text checked (checkText), refused when a second statement follows
// (ErrMultipleStatements) or when there is none (ErrEmptyQuery).
func singleStatement(query string) (string, error) {
	if err := checkText(query); err != nil {
		return "", err
	}
	first, more := firstStatement(query)
	if more {
		return "", ErrMultipleStatements
	}
	if onlyTrivia(first) {
		return "", ErrEmptyQuery
	}
	return first, nil
}

// firstStatement returns the first SQL statement of query and whether anything other
// than white space, comments and semicolons follows it. It knows SQLite's quoting
// ('...', "...", `...`, [...]) and comments (-- and /* */) so that a semicolon inside
// them does not split. Python's sqlite3 module, which the official BIRD and Spider
// scripts use, refuses a query with a second statement; so do we.
func firstStatement(query string) (first string, more bool) {
	i := 0
	n := len(query)
	for i < n {
		c := query[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			i = skipQuoted(query, i, c)
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
			i = skipBlockComment(query, i)
		case c == ';':
			return query[:i], !onlyTrivia(query[i+1:])
		default:
			i++
		}
	}
	return query, false
}

// skipQuoted returns the index after the quoted token starting at i; a doubled quote
// character inside is an escaped quote.
func skipQuoted(s string, i int, q byte) int {
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

func skipBlockComment(s string, i int) int {
	j := i + 2
	for j+1 < len(s) {
		if s[j] == '*' && s[j+1] == '/' {
			return j + 2
		}
		j++
	}
	return len(s)
}

// onlyTrivia reports whether s holds nothing but white space and comments. After the
// first statement's semicolon Python's sqlite3 accepts exactly that (so "SELECT 1;;" is
// refused there as a second statement, and here too); its white space, like SQLite's,
// is space, tab, newline, carriage return and form feed, not vertical tab.
func onlyTrivia(s string) bool {
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
			i = skipBlockComment(s, i)
		default:
			return false
		}
	}
	return true
}
