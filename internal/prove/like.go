package prove

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/sqlc-dev/meyer/ast"
)

// LIKE with a constant pattern. Text is modelled as ordered symbols, so a text's
// characters are not in the model; `x LIKE p` is therefore one uninterpreted predicate
// per pattern over the symbols, pinned to SQLite's own answer at every symbol whose text
// is known (each literal of either query, each closed domain value). A proof then holds
// for every way the unknown texts could match, which includes the real one: sound, and
// complete where every text the queries can see is known (a closed domain). Two
// patterns equal up to ASCII case and repeated '%' are the same predicate, as they
// match the same texts. ESCAPE, GLOB, REGEXP, MATCH, a pattern that is not a constant
// and a number on the left (SQLite matches its text) are outside the subset.

// like evaluates t in three-valued logic: NULL when either side is NULL.
func (en *encoder) like(t *ast.LikeExpr, e *env) (truth, error) {
	if t.Op == nil || !strings.EqualFold(t.Op.Name, "like") {
		return truth{}, unsupported("%s", opName(t))
	}
	if t.Escape != nil {
		return truth{}, unsupported("LIKE ... ESCAPE")
	}
	pat, null, ok := constantPattern(t.Y)
	if id, isIdent := unparen(t.Y).(*ast.Ident); isIdent && id.Quote == ast.QuoteDouble {
		// SQLite reads "%x%" as a string when no column or alias has that name
		_, col, err := e.lookup("", id.Name)
		if _, alias := e.alias(id.Name); err == nil && !col && !alias {
			pat, ok = id.Name, true
		}
	}
	if !ok {
		return truth{}, unsupported("LIKE with a pattern that is not a text literal")
	}
	if null {
		return truth{"false", "false"}, nil
	}
	a, err := en.value(t.X, e)
	if err != nil {
		return truth{}, err
	}
	var r truth
	switch a.k {
	case kindNull:
		return truth{"false", "false"}, nil
	case KindText:
		m := "true" // '%' matches every text
		if canonicalPattern(pat) != "%" {
			name, err := en.likePredicate(pat)
			if err != nil {
				return truth{}, err
			}
			m = "(" + name + " " + a.v + ")"
		}
		r = truth{en.e.def("Bool", and(not(a.null), m)), en.e.def("Bool", and(not(a.null), not(m)))}
	default:
		return truth{}, unsupported("LIKE on a number")
	}
	if t.Not {
		r = r.not()
	}
	return r, nil
}

func opName(t *ast.LikeExpr) string {
	if t.Op == nil {
		return "LIKE-like operator"
	}
	return strings.ToUpper(t.Op.Name)
}

// constantPattern is t's pattern when it is a string literal (or NULL).
func constantPattern(x ast.Expr) (pat string, null, ok bool) {
	l, isLit := unparen(x).(*ast.Literal)
	if !isLit {
		return "", false, false
	}
	switch l.Kind {
	case ast.LitString:
		return l.Value, false, true
	case ast.LitNull:
		return "", true, true
	}
	return "", false, false
}

// likePredicate declares (once per pattern, up to ASCII case and repeated '%') the
// predicate on text symbols for pattern p, pinned at every known text's symbol.
func (en *encoder) likePredicate(p string) (string, error) {
	canon := canonicalPattern(p)
	if name, ok := en.likes[canon]; ok {
		return name, nil
	}
	if !utf8.ValidString(p) {
		return "", unsupported("LIKE pattern not UTF-8")
	}
	for s := range en.texts {
		if !utf8.ValidString(s) {
			return "", unsupported("LIKE beside a text literal not UTF-8")
		}
	}
	if en.likes == nil {
		en.likes = map[string]string{}
	}
	name := fmt.Sprintf("like%d", len(en.likes))
	en.likes[canon] = name
	fmt.Fprintf(&en.e.b, "(declare-fun %s (Int) Bool)\n", name)
	texts := make([]string, 0, len(en.texts))
	for s := range en.texts {
		texts = append(texts, s)
	}
	sort.Strings(texts) // one script for one pair
	for _, s := range texts {
		m := "false"
		if likeMatch(p, s) {
			m = "true"
		}
		en.e.assert(fmt.Sprintf("(= (%s %s) %s)", name, en.texts[s], m))
	}
	return name, nil
}

// canonicalPattern folds ASCII case and runs of '%': patterns with the same canonical
// form match the same texts.
func canonicalPattern(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '%' && b.Len() > 0 && strings.HasSuffix(b.String(), "%") {
			continue
		}
		b.WriteByte(asciiLower(c))
	}
	return b.String()
}

func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// likeMatch is SQLite's LIKE without ESCAPE (case_sensitive_like off): '%' matches any
// run of characters, '_' one character (a UTF-8 code point), and letters match up to
// ASCII case only ('É' and 'é' differ).
func likeMatch(pat, s string) bool {
	p, t := []rune(pat), []rune(s) // both valid UTF-8 (likePredicate checks)
	// memo[i][j]: p[i:] matches t[j:]
	memo := make([][]int8, len(p)+1)
	for i := range memo {
		memo[i] = make([]int8, len(t)+1)
	}
	var match func(i, j int) bool
	match = func(i, j int) bool {
		if memo[i][j] != 0 {
			return memo[i][j] > 0
		}
		var ok bool
		switch {
		case i == len(p):
			ok = j == len(t)
		case p[i] == '%':
			ok = match(i+1, j) || j < len(t) && match(i, j+1)
		case j == len(t):
			ok = false
		case p[i] == '_' || foldRune(p[i]) == foldRune(t[j]):
			ok = match(i+1, j+1)
		}
		memo[i][j] = -1
		if ok {
			memo[i][j] = 1
		}
		return ok
	}
	return match(0, 0)
}

func foldRune(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

func unparen(x ast.Expr) ast.Expr {
	for {
		p, ok := x.(*ast.ParenExpr)
		if !ok {
			return x
		}
		x = p.X
	}
}
