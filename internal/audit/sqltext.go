package audit

import (
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// token is one lexical unit of a query, with its byte span and parenthesis depth.
type token struct {
	text       string
	start, end int
	depth      int
	kind       byte // 'w' word, 'q' quoted identifier, 's' string, 'n' number, 'p' punctuation
}

// kinds maps sqlscan's token kinds to the letters the audit's checks test.
var kinds = [...]byte{sqlscan.String: 's', sqlscan.Ident: 'q', sqlscan.Word: 'w', sqlscan.Number: 'n', sqlscan.Punct: 'p'}

// lex splits SQL into tokens, skipping comments and blanks, with each token's
// parenthesis depth. It is lenient: an unterminated string or comment runs to the end.
func lex(sql string) []token {
	code := sqlscan.Code(sql)
	out := make([]token, 0, len(code))
	depth := 0
	for _, t := range code {
		text := t.Text(sql)
		if text == ")" {
			depth--
		}
		out = append(out, token{text: text, start: t.Start, end: t.End, depth: depth, kind: kinds[t.Kind]})
		if text == "(" {
			depth++
		}
	}
	return out
}

func (t token) is(word string) bool { return t.kind == 'w' && strings.EqualFold(t.text, word) }

// orderKey is one ORDER BY term.
type orderKey struct {
	Text string // as written, without ASC/DESC/NULLS
	Expr string // the expression to select: a result alias or position resolved to its expression
	Desc bool
	// NullsFirst is where SQLite puts this key's NULLs: first for ASC unless NULLS LAST,
	// last for DESC unless NULLS FIRST.
	NullsFirst bool
}

// shape is what the audit needs of a query's top level: its final SELECT's list, ORDER
// BY keys and LIMIT. Probe is false when the query cannot be rewritten to expose the keys
// (a compound SELECT, DISTINCT over keys not selected, a LIMIT that is not a literal).
type shape struct {
	HasOrder bool
	Keys     []orderKey
	HasLimit bool
	Limit    int // rows kept; -1 for none
	Offset   int
	Probe    bool
	// listEnd is where the final SELECT's result list ends (new columns go there);
	// orderAt and limitAt where ORDER BY and LIMIT start (len(sql) when absent).
	listEnd, orderAt, limitAt int
}

// analyse finds the top-level shape of sql.
func analyse(sql string) shape {
	toks := lex(sql)
	for len(toks) > 0 && toks[len(toks)-1].text == ";" {
		toks = toks[:len(toks)-1]
	}
	sh := shape{Limit: -1, orderAt: len(sql), limitAt: len(sql)}
	end := len(sql)
	if len(toks) > 0 {
		end = toks[len(toks)-1].end
	}
	sh.orderAt, sh.limitAt = end, end
	sel, from, compound := -1, -1, false
	orderTok, limitTok := -1, -1
	for i, t := range toks {
		if t.depth != 0 {
			continue
		}
		switch {
		case t.is("SELECT") && sel < 0:
			sel = i
		case t.is("FROM") && sel >= 0 && from < 0:
			from = i
		case t.is("UNION") || t.is("INTERSECT") || t.is("EXCEPT"):
			compound = true
		case t.is("ORDER") && i+1 < len(toks) && toks[i+1].is("BY"):
			orderTok = i
		case t.is("LIMIT"):
			limitTok = i
		}
	}
	if orderTok >= 0 {
		sh.HasOrder = true
		sh.orderAt = toks[orderTok].start
	}
	if limitTok >= 0 {
		sh.HasLimit = true
		sh.limitAt = toks[limitTok].start
		sh.Limit, sh.Offset = limitValues(toks[limitTok+1:])
	}
	if sel < 0 || compound || (orderTok >= 0 && limitTok >= 0 && limitTok < orderTok) {
		return sh
	}
	listStart := sel + 1
	distinct := false
	if listStart < len(toks) && (toks[listStart].is("DISTINCT") || toks[listStart].is("ALL")) {
		distinct = toks[listStart].is("DISTINCT")
		listStart++
	}
	listEndTok := len(toks)
	if from >= 0 {
		listEndTok = from
	} else {
		for i := listStart; i < len(toks); i++ {
			if toks[i].depth == 0 && (toks[i].is("WHERE") || toks[i].is("GROUP") || toks[i].is("ORDER") || toks[i].is("LIMIT") || toks[i].is("WINDOW")) {
				listEndTok = i
				break
			}
		}
	}
	if listEndTok <= listStart {
		return sh
	}
	sh.listEnd = toks[listEndTok-1].end
	items := splitItems(sql, toks[listStart:listEndTok])
	if orderTok >= 0 {
		stop := len(toks)
		if limitTok >= 0 {
			stop = limitTok
		}
		sh.Keys = orderKeys(sql, toks[orderTok+2:stop], items)
	}
	if sh.HasLimit && sh.Limit < 0 {
		return sh // LIMIT with an expression: not probed
	}
	sh.Probe = len(sh.Keys) > 0
	if distinct {
		// Extra key columns would change which rows DISTINCT merges, unless every key
		// is already selected.
		for _, k := range sh.Keys {
			if !selected(items, k.Expr) {
				sh.Probe = false
			}
		}
	}
	return sh
}

// limitValues reads "n", "n OFFSET m" or "m, n" of integer literals; -1 otherwise.
func limitValues(toks []token) (limit, offset int) {
	num := func(t token) (int, bool) {
		n, err := strconv.Atoi(t.text)
		return n, err == nil && t.kind == 'n'
	}
	switch {
	case len(toks) == 1:
		if n, ok := num(toks[0]); ok {
			return n, 0
		}
	case len(toks) == 3 && toks[1].is("OFFSET"):
		n, ok1 := num(toks[0])
		m, ok2 := num(toks[2])
		if ok1 && ok2 {
			return n, m
		}
	case len(toks) == 3 && toks[1].text == ",":
		m, ok1 := num(toks[0])
		n, ok2 := num(toks[2])
		if ok1 && ok2 {
			return n, m
		}
	}
	return -1, 0
}

// item is one result column: its expression and alias.
type item struct{ expr, alias string }

// splitItems splits a result list at its top-level commas and finds each alias
// ("expr AS a", or "expr a" after a closing parenthesis, identifier or literal).
func splitItems(sql string, toks []token) []item {
	var out []item
	depth := toks[0].depth
	start := 0
	flush := func(end int) {
		part := toks[start:end]
		if len(part) == 0 {
			return
		}
		it := item{expr: sql[part[0].start:part[len(part)-1].end]}
		n := len(part)
		if n >= 3 && part[n-2].is("AS") {
			it = item{expr: sql[part[0].start:part[n-3].end], alias: unquote(part[n-1].text)}
		} else if n >= 2 && (part[n-1].kind == 'w' || part[n-1].kind == 'q') && (part[n-2].text == ")" || part[n-2].kind == 'w' || part[n-2].kind == 'q' || part[n-2].kind == 'n' || part[n-2].kind == 's') && !isKeyword(part[n-2]) && !isKeyword(part[n-1]) {
			it = item{expr: sql[part[0].start:part[n-2].end], alias: unquote(part[n-1].text)}
		}
		out = append(out, it)
	}
	for i, t := range toks {
		if t.depth == depth && t.text == "," {
			flush(i)
			start = i + 1
		}
	}
	flush(len(toks))
	return out
}

func isKeyword(t token) bool {
	switch strings.ToUpper(t.text) {
	case "DISTINCT", "ALL", "CASE", "WHEN", "THEN", "ELSE", "END", "NOT", "AND", "OR", "IS", "NULL", "IN", "LIKE", "BETWEEN":
		return t.kind == 'w'
	}
	return false
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '`' || s[0] == '[') {
		return s[1 : len(s)-1]
	}
	return s
}

// orderKeys splits ORDER BY terms and resolves result aliases and positions.
func orderKeys(sql string, toks []token, items []item) []orderKey {
	var out []orderKey
	start := 0
	flush := func(end int) {
		part := toks[start:end]
		k := orderKey{}
		nullsSet := false
		for len(part) > 0 {
			n := len(part)
			switch {
			case n >= 2 && part[n-2].is("NULLS") && (part[n-1].is("FIRST") || part[n-1].is("LAST")):
				k.NullsFirst, nullsSet = part[n-1].is("FIRST"), true
				part = part[:n-2]
				continue
			case part[n-1].is("ASC"):
				part = part[:n-1]
				continue
			case part[n-1].is("DESC"):
				k.Desc = true
				part = part[:n-1]
				continue
			}
			break
		}
		if len(part) == 0 {
			return
		}
		if !nullsSet {
			k.NullsFirst = !k.Desc
		}
		k.Text = sql[part[0].start:part[len(part)-1].end]
		k.Expr = k.Text
		if len(part) == 1 {
			if n, err := strconv.Atoi(part[0].text); err == nil && part[0].kind == 'n' && n >= 1 && n <= len(items) {
				k.Expr = items[n-1].expr
			} else {
				for _, it := range items {
					if it.alias != "" && strings.EqualFold(it.alias, unquote(part[0].text)) {
						k.Expr = it.expr
					}
				}
			}
		}
		out = append(out, k)
	}
	for i, t := range toks {
		if t.depth == 0 && t.text == "," {
			flush(i)
			start = i + 1
		}
	}
	flush(len(toks))
	return out
}

func selected(items []item, expr string) bool {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	for _, it := range items {
		if norm(it.expr) == norm(expr) || (it.alias != "" && strings.EqualFold(it.alias, expr)) {
			return true
		}
	}
	return false
}

// keyProbe rewrites sql to also return its ORDER BY keys as the last columns, in the
// same order, with rows capped at limit (-1: no LIMIT). ok is false when the shape does
// not allow it.
func keyProbe(sql string, sh shape, limit int) (string, bool) {
	if !sh.Probe {
		return "", false
	}
	var b strings.Builder
	b.WriteString(sql[:sh.listEnd])
	for i, k := range sh.Keys {
		b.WriteString(", (" + k.Expr + ") AS \"__audit_key" + strconv.Itoa(i) + "\"")
	}
	b.WriteString(sql[sh.listEnd:sh.limitAt])
	if limit >= 0 {
		b.WriteString(" LIMIT " + strconv.Itoa(limit))
	}
	return b.String(), true
}
