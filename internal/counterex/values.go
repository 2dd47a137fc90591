package counterex

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
)

// literal is a constant of a query and the column name it was compared with ("" when
// none was recognised).
type literal struct {
	col string
	v   any // int64, float64 or string
}

var compareOps = map[string]bool{"=": true, "==": true, "!=": true, "<>": true, "<": true, ">": true, "<=": true, ">=": true,
	"like": true, "glob": true, "in": true, "between": true, "and": true, "is": true, "not": true, "(": true, ",": true}

// literals scans sql's tokens for string and number constants and, for each, the column
// it is compared with: the nearest identifier before an operator chain (x = 1,
// x IN (1, 2), x BETWEEN 1 AND 2, x NOT LIKE '%a%').
func literals(sql string) []literal {
	toks := tokens(sql)
	var out []literal
	for i, t := range toks {
		var v any
		switch t.kind {
		case tokString:
			v = t.text
		case tokNumber:
			if n, err := strconv.ParseInt(t.text, 10, 64); err == nil {
				v = n
			} else if f, err := strconv.ParseFloat(t.text, 64); err == nil {
				v = f
			}
		}
		if v == nil {
			continue
		}
		col := ""
		for j := i - 1; j >= 0 && i-j < 12; j-- {
			w := strings.ToLower(toks[j].text)
			if toks[j].kind == tokIdent && !compareOps[w] {
				col = toks[j].text
				break
			}
			if toks[j].kind == tokOther && !compareOps[w] {
				break
			}
		}
		out = append(out, literal{col: col, v: v})
	}
	return out
}

type tokKind int

const (
	tokOther tokKind = iota
	tokIdent
	tokString
	tokNumber
)

type token struct {
	kind tokKind
	text string // dequoted for strings and identifiers
}

// tokens is a small SQL lexer: enough to find literals and the words before them.
func tokens(s string) []token {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '\'' || c == '"' || c == '`' || c == '[':
			end := c
			if c == '[' {
				end = ']'
			}
			var b strings.Builder
			j := i + 1
			for j < len(s) {
				if s[j] == end {
					if j+1 < len(s) && s[j+1] == end && end != ']' {
						b.WriteByte(end)
						j += 2
						continue
					}
					break
				}
				b.WriteByte(s[j])
				j++
			}
			kind := tokIdent
			if c == '\'' || c == '"' { // Spider writes strings in double quotes
				kind = tokString
			}
			out = append(out, token{kind, b.String()})
			if c == '"' { // it may also be a column name
				out = append(out[:len(out)-1], token{tokString, b.String()})
			}
			i = j + 1
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == 'e' || s[j] == 'E' ||
				(s[j] == '-' || s[j] == '+') && j > i && (s[j-1] == 'e' || s[j-1] == 'E')) {
				j++
			}
			out = append(out, token{tokNumber, s[i:j]})
			i = j
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
			j := i
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9' || s[j] >= 0x80) {
				j++
			}
			out = append(out, token{tokIdent, s[i:j]})
			i = j
		default:
			j := i + 1
			if j < len(s) && strings.Contains("=<>!|", string(s[j])) && strings.Contains("=<>!|", string(c)) {
				j++
			}
			out = append(out, token{tokOther, s[i:j]})
			i = j
		}
	}
	return out
}

// variants are the boundary values around one literal: numbers on both sides, strings
// equal up to case or surrounding spaces, and the text inside a LIKE pattern.
func variants(v any) []any {
	switch x := v.(type) {
	case int64:
		return []any{x, x - 1, x + 1, float64(x) + 0.5, float64(x) - 0.5, strconv.FormatInt(x, 10)}
	case float64:
		return []any{x, x - 1, x + 1, x - 0.01, x + 0.01, math.Floor(x), math.Ceil(x)}
	case string:
		out := []any{x, strings.ToUpper(x), strings.ToLower(x), x + " ", " " + x}
		if strings.ContainsAny(x, "%_") { // a LIKE pattern: strings it matches or nearly does
			core := strings.Trim(x, "%_")
			core = strings.NewReplacer("%", "", "_", "x").Replace(core)
			out = []any{core, "a" + core + "b", core + "z", strings.ToUpper(core), core + " "}
		}
		if n, err := strconv.ParseInt(x, 10, 64); err == nil {
			out = append(out, n, n-1, n+1)
		}
		if len(x) >= 5 && len(x) <= 30 && (x[2] == '-' || x[4] == '-' || x[2] == '/') { // date-like: a neighbour
			out = append(out, x[:len(x)-1]+string(rune(x[len(x)-1]+1)))
		}
		return out
	}
	return []any{v}
}

// colPool is one column's candidate values: from the data (and the columns it is joined
// with), and from the literals of both queries.
type colPool struct {
	data, lits []any
}

// pools are the candidate values of every column of a spec, per table and column.
type pools [][]colPool

// buildPools draws each column's values from the original data (up to sampleRows rows)
// and that of the columns the queries equate it with, the literals compared with a
// column of that name with their boundary values, and every other literal that fits.
func buildPools(ctx context.Context, d *dbInfo, s *spec, queries []string) pools {
	var lits []literal
	partners := map[string][]string{}
	for _, q := range queries {
		lits = append(lits, literals(q)...)
		for a, bs := range joinPartners(q) {
			partners[a] = append(partners[a], bs...)
		}
	}
	byName := map[string][]any{} // column name -> data values over the spec's tables
	samples := make([][][]any, len(s.tables))
	for ti, ts := range s.tables {
		samples[ti] = d.sample(ctx, ts.t)
		for ci, c := range ts.cols {
			n := strings.ToLower(c.name)
			for k, r := range samples[ti] {
				if k >= 12 {
					break
				}
				byName[n] = append(byName[n], r[ci])
			}
		}
	}
	p := make(pools, len(s.tables))
	for ti, ts := range s.tables {
		p[ti] = make([]colPool, len(ts.cols))
		for ci, c := range ts.cols {
			seen := map[any]bool{}
			add := func(dst *[]any, v any) {
				v = fit(v, c.aff)
				if v == nil || ci == ts.rowidPK && !isInt(v) {
					return
				}
				k := v
				if b, ok := v.([]byte); ok {
					k = "blob:" + string(b)
				}
				if !seen[k] {
					seen[k] = true
					*dst = append(*dst, v)
				}
			}
			cp := &p[ti][ci]
			for _, r := range samples[ti] {
				if len(cp.data) >= 24 {
					break
				}
				add(&cp.data, r[ci])
			}
			for _, other := range partners[strings.ToLower(c.name)] {
				for _, v := range byName[other] {
					add(&cp.data, v)
				}
			}
			date := isDateColumn(c, samples[ti], ci)
			addLit := func(v any) {
				if date {
					for _, d := range dateVariants(v) {
						add(&cp.lits, d)
					}
					return
				}
				add(&cp.lits, v)
			}
			for _, l := range lits {
				if l.col != "" && strings.EqualFold(l.col, c.name) {
					for _, v := range variants(l.v) {
						addLit(v)
					}
				}
			}
			for _, l := range lits {
				str, isText := l.v.(string)
				if isText == (c.aff == dbschema.AffinityText || c.aff == dbschema.AffinityBlob || c.aff == dbschema.AffinityNumeric) && !strings.ContainsAny(str, "%_") {
					addLit(l.v)
				}
			}
			switch c.aff {
			case dbschema.AffinityInteger, dbschema.AffinityNumeric, dbschema.AffinityReal:
				add(&cp.data, int64(0))
				add(&cp.data, int64(1))
			case dbschema.AffinityText:
				add(&cp.data, "")
			}
		}
	}
	return p
}

func isInt(v any) bool { _, ok := v.(int64); return ok }

// joinPartners maps each column name equated with another (a.x = b.y, x = y) to the
// other's name, both ways, lowercased.
func joinPartners(sql string) map[string][]string {
	toks := tokens(sql)
	out := map[string][]string{}
	colAt := func(i int) (string, bool) { // the column name of a reference ending at i
		if i < 0 || i >= len(toks) || toks[i].kind != tokIdent {
			return "", false
		}
		return strings.ToLower(toks[i].text), true
	}
	for i, t := range toks {
		if t.kind != tokOther || (t.text != "=" && t.text != "==") {
			continue
		}
		a, ok1 := colAt(i - 1)
		j := i + 1
		if j+2 < len(toks) && toks[j+1].text == "." {
			j += 2
		}
		b, ok2 := colAt(j)
		if ok1 && ok2 && a != b {
			out[a] = append(out[a], b)
			out[b] = append(out[b], a)
		}
	}
	return out
}

// fit converts v to what a column of dbschema.Affinity a stores, or nil when it would not fit
// the declared type (text in an INTEGER column, say).
func fit(v any, a dbschema.Affinity) any {
	switch a {
	case dbschema.AffinityInteger, dbschema.AffinityReal, dbschema.AffinityNumeric:
		switch x := v.(type) {
		case int64, float64:
			return x
		case string:
			if n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64); err == nil && a != dbschema.AffinityReal {
				return n
			}
			if f, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
				return f
			}
			if a == dbschema.AffinityNumeric {
				return x // NUMERIC holds dates and other text in these datasets
			}
			return nil
		}
		return nil
	case dbschema.AffinityText:
		switch x := v.(type) {
		case string:
			return x
		case int64:
			return strconv.FormatInt(x, 10)
		case float64:
			return strconv.FormatFloat(x, 'f', -1, 64)
		}
		return nil
	}
	return v
}

var dateRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}`)

// isDateColumn reports whether column ci holds dates: declared DATE / TIME, or most of
// its sampled text starts like an ISO date. Such a column only gets ISO dates, so a
// counterexample never rests on a malformed date.
func isDateColumn(c colSpec, rows [][]any, ci int) bool {
	t := strings.ToUpper(c.typ)
	if strings.Contains(t, "DATE") || strings.Contains(t, "TIME") {
		return true
	}
	n, dates := 0, 0
	for _, r := range rows {
		if s, ok := r[ci].(string); ok {
			n++
			if dateRe.MatchString(s) {
				dates++
			}
		}
	}
	return n > 0 && dates*5 >= n*4
}

// dateVariants maps a literal compared with a date column to ISO dates at and around it:
// a year gives its first and last day and the days just outside, a month likewise, a
// date itself and the days beside it. Anything else gives nothing.
func dateVariants(v any) []any {
	s := strings.TrimSpace(fmt.Sprint(v))
	if t, err := time.Parse("2006", s); err == nil && len(s) == 4 {
		return dates(t, t.AddDate(1, 0, -1), t.AddDate(0, 0, -1), t.AddDate(1, 0, 0), t.AddDate(0, 6, 14))
	}
	if t, err := time.Parse("2006-01", s); err == nil {
		return dates(t, t.AddDate(0, 1, -1), t.AddDate(0, 0, -1), t.AddDate(0, 1, 0))
	}
	for _, layout := range []string{"2006-01-02", "2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02 15:04"} {
		if t, err := time.Parse(layout, s); err == nil {
			return append([]any{s}, dates(t.AddDate(0, 0, -1), t.AddDate(0, 0, 1))...)
		}
	}
	return nil
}

func dates(ts ...time.Time) []any {
	out := make([]any, len(ts))
	for i, t := range ts {
		out[i] = t.Format("2006-01-02")
	}
	return out
}
