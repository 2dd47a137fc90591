package counterex

import (
	"regexp"
	"strconv"
	"strings"
)

// neighbours returns the gold with one thing changed, as Spider's test-suite distillation
// does: a comparison operator, a conjunct dropped or AND/OR swapped, DISTINCT added or
// removed, the LIMIT dropped or moved, an inner join made outer, an aggregate swapped,
// the ORDER direction flipped, a number moved by one. A variant on which the gold and a
// neighbour differ exercises what the gold depends on. Mutations are textual: one that
// breaks the query just fails on every variant and is ignored.
func neighbours(gold string) []string {
	seen := map[string]bool{gold: true}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, m := range mutations {
		for _, s := range m(gold) {
			add(s)
		}
	}
	return out
}

type mutation func(string) []string

// replaceEach returns s with each match of re (one at a time) replaced by f(match).
func replaceEach(s string, re *regexp.Regexp, f func(string) string) []string {
	var out []string
	for _, loc := range re.FindAllStringIndex(s, 8) {
		m := s[loc[0]:loc[1]]
		if r := f(m); r != m {
			out = append(out, s[:loc[0]]+r+s[loc[1]:])
		}
	}
	return out
}

var (
	opRe       = regexp.MustCompile(`>=|<=|!=|<>|=|>|<`)
	distinctRe = regexp.MustCompile(`(?i)\bDISTINCT\s+`)
	selectRe   = regexp.MustCompile(`(?i)\bSELECT\s+`)
	limitRe    = regexp.MustCompile(`(?i)\bLIMIT\s+(\d+)`)
	joinRe     = regexp.MustCompile(`(?i)\b(INNER\s+)?JOIN\b`)
	aggRe      = regexp.MustCompile(`(?i)\b(MAX|MIN|SUM|AVG|COUNT)\s*\(`)
	dirRe      = regexp.MustCompile(`(?i)\b(ASC|DESC)\b`)
	orderEndRe = regexp.MustCompile(`(?i)\bORDER\s+BY\s+[^;]*?(\s+LIMIT\b|$)`)
	andOrRe    = regexp.MustCompile(`(?i)\s(AND|OR)\s`)
	conjRe     = regexp.MustCompile(`(?i)\s(AND|OR)\s+[^()]*?(\s(AND|OR|GROUP|ORDER|LIMIT|UNION|INTERSECT|EXCEPT)\s|\)|$)`)
	numberRe   = regexp.MustCompile(`\b\d+\b`)
)

var mutations = []mutation{
	func(s string) []string { // comparison operators
		return replaceEach(s, opRe, func(m string) string {
			return map[string]string{">=": ">", "<=": "<", "!=": "=", "<>": "=", "=": "!=", ">": ">=", "<": "<="}[m]
		})
	},
	func(s string) []string { // DISTINCT removed, or added to the first SELECT
		out := replaceEach(s, distinctRe, func(string) string { return "" })
		if len(out) == 0 {
			if loc := selectRe.FindStringIndex(s); loc != nil {
				out = append(out, s[:loc[1]]+"DISTINCT "+s[loc[1]:])
			}
		}
		return out
	},
	func(s string) []string { // LIMIT dropped or moved by one
		out := replaceEach(s, limitRe, func(string) string { return "" })
		return append(out, replaceEach(s, limitRe, func(m string) string {
			n, _ := strconv.Atoi(limitRe.FindStringSubmatch(m)[1])
			return "LIMIT " + strconv.Itoa(n+1)
		})...)
	},
	func(s string) []string { // inner join made outer
		return replaceEach(s, joinRe, func(string) string { return "LEFT JOIN" })
	},
	func(s string) []string { // aggregate swapped; COUNT(x) made COUNT(DISTINCT x)
		return replaceEach(s, aggRe, func(m string) string {
			name := strings.ToUpper(strings.TrimSpace(strings.TrimSuffix(m, "(")))
			return map[string]string{"MAX": "MIN(", "MIN": "MAX(", "SUM": "AVG(", "AVG": "SUM(", "COUNT": "COUNT(DISTINCT "}[name]
		})
	},
	func(s string) []string { // ORDER direction flipped (an implicit ASC made DESC)
		out := replaceEach(s, dirRe, func(m string) string {
			if strings.EqualFold(m, "ASC") {
				return "DESC"
			}
			return "ASC"
		})
		if len(out) == 0 {
			if loc := orderEndRe.FindStringSubmatchIndex(s); loc != nil {
				out = append(out, s[:loc[2]]+" DESC"+s[loc[2]:])
			}
		}
		return out
	},
	func(s string) []string { // AND and OR swapped
		return replaceEach(s, andOrRe, func(m string) string {
			if strings.EqualFold(strings.TrimSpace(m), "AND") {
				return " OR "
			}
			return " AND "
		})
	},
	func(s string) []string { // a conjunct or disjunct dropped
		return replaceEach(s, conjRe, func(m string) string {
			tail := conjRe.FindStringSubmatch(m)[2]
			return tail
		})
	},
	func(s string) []string { // a number moved by one
		return replaceEach(s, numberRe, func(m string) string {
			n, err := strconv.Atoi(m)
			if err != nil {
				return m
			}
			return strconv.Itoa(n + 1)
		})
	},
}
