package audit

import "strings"

// clauses are the top-level clause positions of a query's final SELECT (token indexes,
// -1 when absent): what the sentinel and ratio checks need to add a filter or read a
// ratio. Compound SELECTs are not handled (ok false).
type clauses struct {
	toks                                          []token
	sel, from, where, group, having, order, limit int
}

func topClauses(sql string) (clauses, bool) {
	toks := lex(sql)
	for len(toks) > 0 && toks[len(toks)-1].text == ";" {
		toks = toks[:len(toks)-1]
	}
	c := clauses{toks: toks, sel: -1, from: -1, where: -1, group: -1, having: -1, order: -1, limit: -1}
	for i, t := range toks {
		if t.depth != 0 {
			continue
		}
		switch {
		case t.is("UNION") || t.is("INTERSECT") || t.is("EXCEPT"):
			return c, false
		case t.is("SELECT") && c.sel < 0:
			c.sel = i
		case t.is("FROM") && c.sel >= 0 && c.from < 0:
			c.from = i
		case t.is("WHERE") && c.from >= 0 && c.where < 0:
			c.where = i
		case t.is("GROUP") && c.group < 0:
			c.group = i
		case t.is("HAVING") && c.having < 0:
			c.having = i
		case t.is("ORDER") && i+1 < len(toks) && toks[i+1].is("BY"):
			c.order = i
		case t.is("LIMIT"):
			c.limit = i
		}
	}
	return c, c.sel >= 0 && c.from > c.sel
}

// after is the first clause start after token i (len(toks) when none).
func (c clauses) after(i int) int {
	next := len(c.toks)
	for _, k := range []int{c.where, c.group, c.having, c.order, c.limit} {
		if k > i && k < next {
			next = k
		}
	}
	return next
}

// withFilter adds cond to sql's top-level WHERE (creating one). ok is false for a query
// it cannot place a filter in.
func withFilter(sql, cond string) (string, bool) {
	c, ok := topClauses(sql)
	if !ok {
		return "", false
	}
	end := func(i int) int { // byte offset where the clause ending before token i ends
		if i >= len(c.toks) {
			return c.toks[len(c.toks)-1].end
		}
		return c.toks[i].start
	}
	if c.where >= 0 {
		ws, we := c.toks[c.where].end, end(c.after(c.where))
		return sql[:ws] + " (" + strings.TrimSpace(sql[ws:we]) + ") AND (" + cond + ") " + sql[we:], true
	}
	at := end(c.after(c.from))
	return strings.TrimRight(sql[:at], " \t\r\n") + " WHERE " + cond + " " + sql[at:], true
}

// tableRefs maps the names a query uses for its tables (alias and name, lower case) to
// the table names, from every FROM and JOIN at any depth.
func tableRefs(toks []token) map[string]string {
	out := map[string]string{}
	for i := 0; i+1 < len(toks); i++ {
		if !toks[i].is("FROM") && !toks[i].is("JOIN") {
			continue
		}
		t := toks[i+1]
		if t.kind != 'w' && t.kind != 'q' {
			continue
		}
		name := unquote(t.text)
		out[strings.ToLower(name)] = name
		j := i + 2
		if j < len(toks) && toks[j].is("AS") {
			j++
		}
		if j < len(toks) && (toks[j].kind == 'w' || toks[j].kind == 'q') && !clauseWord(toks[j]) {
			out[strings.ToLower(unquote(toks[j].text))] = name
		}
	}
	return out
}

func clauseWord(t token) bool {
	switch strings.ToUpper(t.text) {
	case "WHERE", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "ON", "USING", "GROUP", "ORDER", "LIMIT", "HAVING", "UNION", "INTERSECT", "EXCEPT", "WINDOW":
		return t.kind == 'w'
	}
	return false
}

// colRef is a column reference as written ("T1.height_cm" or "height_cm").
type colRef struct {
	text, qual, col string
	start, end      int    // where it is written in the query
	how             string // what the query does with it: "AVG", "comparison", "ORDER BY", ...
}

// refAt reads a column reference starting at token i: word or word.word.
func refAt(sql string, toks []token, i int) (colRef, int, bool) {
	if i < 0 || i >= len(toks) || (toks[i].kind != 'w' && toks[i].kind != 'q') || isKeyword(toks[i]) {
		return colRef{}, i, false
	}
	if i+2 < len(toks) && toks[i+1].text == "." && (toks[i+2].kind == 'w' || toks[i+2].kind == 'q') {
		return colRef{text: sql[toks[i].start:toks[i+2].end], qual: unquote(toks[i].text), col: unquote(toks[i+2].text), start: toks[i].start, end: toks[i+2].end}, i + 3, true
	}
	if i+1 < len(toks) && toks[i+1].text == "(" {
		return colRef{}, i, false // a function call
	}
	return colRef{text: toks[i].text, col: unquote(toks[i].text), start: toks[i].start, end: toks[i].end}, i + 1, true
}

// valueRefs finds the columns a query aggregates (AVG, SUM, MIN, MAX, TOTAL of a bare
// column, possibly inside CAST), compares with an ordering operator, or orders by.
func valueRefs(sql string) []colRef {
	toks := lex(sql)
	var out []colRef
	seen := map[string]bool{}
	add := func(r colRef) {
		k := strings.ToLower(r.text) + "|" + r.how
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.kind == 'w' && i+1 < len(toks) && toks[i+1].text == "(" && isAggregate(t.text):
			j := i + 2
			if j < len(toks) && toks[j].is("DISTINCT") {
				j++
			}
			if j+1 < len(toks) && toks[j].is("CAST") && toks[j+1].text == "(" {
				j += 2
			}
			if r, k, ok := refAt(sql, toks, j); ok && k < len(toks) && (toks[k].text == ")" || toks[k].is("AS")) {
				r.how = strings.ToUpper(t.text)
				add(r)
			}
		case t.text == "<" || t.text == ">" || t.is("BETWEEN"):
			// "a < 5", "a >= 5", "a BETWEEN": the reference before the operator.
			k := i - 1
			if k >= 0 && (toks[k].text == "<" || toks[k].text == ">" || toks[k].text == "!") {
				continue // the second character of <>, >=, ...: handled at the first
			}
			start := k
			if k >= 2 && toks[k-1].text == "." {
				start = k - 2
			}
			if r, end, ok := refAt(sql, toks, start); ok && end == i {
				if i+1 < len(toks) && toks[i+1].text == ">" && t.text == "<" {
					continue // <>: not an ordering comparison
				}
				r.how = "comparison"
				add(r)
			}
		case t.is("ORDER") && i+1 < len(toks) && toks[i+1].is("BY"):
			for j := i + 2; j < len(toks); {
				r, k, ok := refAt(sql, toks, j)
				if !ok {
					break
				}
				r.how = "ORDER BY"
				add(r)
				for k < len(toks) && (toks[k].is("ASC") || toks[k].is("DESC")) {
					k++
				}
				if k < len(toks) && toks[k].text == "," {
					j = k + 1
					continue
				}
				break
			}
		}
	}
	return out
}

func isAggregate(w string) bool {
	switch strings.ToUpper(w) {
	case "AVG", "SUM", "MIN", "MAX", "TOTAL":
		return true
	}
	return false
}

// selectItems are the expressions of the final SELECT's result list, lower case.
func selectItems(sql string) []string {
	c, ok := topClauses(sql)
	if !ok {
		return nil
	}
	start := c.sel + 1
	if start < c.from && (c.toks[start].is("DISTINCT") || c.toks[start].is("ALL")) {
		start++
	}
	if start >= c.from {
		return nil
	}
	var out []string
	for _, it := range splitItems(sql, c.toks[start:c.from]) {
		out = append(out, strings.ToLower(it.expr))
	}
	return out
}
