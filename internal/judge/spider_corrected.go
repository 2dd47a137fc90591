package judge

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// SpiderMode says which rewrite Spider's execution match runs (--spider-mode).
type SpiderMode string

// The two Spider modes.
const (
	// SpiderOfficial rewrites as test-suite-sql-eval does (SpiderRewriteGold, SpiderRewritePred).
	SpiderOfficial SpiderMode = "official"
	// SpiderCorrected rewrites only what the official rewrite was written for
	// (SpiderCorrectGold, SpiderCorrectPred): a query compared with itself is correct.
	SpiderCorrected SpiderMode = "corrected"
)

// ParseSpiderMode reads a --spider-mode value ("" is the default, official).
func ParseSpiderMode(s string) (SpiderMode, error) {
	switch SpiderMode(strings.ToLower(strings.TrimSpace(s))) {
	case "", SpiderOfficial:
		return SpiderOfficial, nil
	case SpiderCorrected:
		return SpiderCorrected, nil
	}
	return "", fmt.Errorf("spider mode %q: want official or corrected", s)
}

// Corners of the official rewrite: the ways it changes a query it was not written for.
// Each names a rewrite that corrected mode does not make (spider_rewrite_corners).
const (
	CornerValueInName     = "value_in_name"         // "value" inside a longer word: attribute_value → attribute_1
	CornerValueColumn     = "value_column"          // a column named value (t.value, or a query that runs with it)
	CornerValueQuoted     = "value_quoted"          // inside a quoted identifier: `value`, "value", [value]
	CornerValueInString   = "value_in_string"       // inside a string literal: 'value' → '1'
	CornerValueInComment  = "value_in_comment"      // inside a comment (harmless to the result)
	CornerDistinctInAgg   = "distinct_in_aggregate" // COUNT(DISTINCT x) → COUNT( x)
	CornerDistinctNested  = "distinct_nested"       // SELECT DISTINCT of a subquery
	CornerDistinctName    = "distinct_name"         // any other token spelled distinct (a column named so)
	CornerOperatorLiteral = "operator_in_literal"   // "> =" joined inside a string, identifier or comment
	CornerCurdateSpace    = "curdate_space"         // YEAR(CURDATE()) eating the white space after it
	CornerCurdateLiteral  = "curdate_in_literal"    // YEAR(CURDATE()) replaced inside a string, identifier or comment
)

// SpiderCorrectGold is SpiderRewriteGold limited to what it was written for: "> =" and
// its like are joined, and YEAR(CURDATE()) becomes 2020 (keeping the white space after
// it), only outside strings, quoted identifiers and comments; DISTINCT is deleted only
// right after a SELECT at the top level (not in a subquery, not inside an aggregate, not
// a column spelled distinct). Like the official rewrite it keeps the first statement.
// Where the official rewrite changes nothing, neither does this.
func SpiderCorrectGold(sql string) string {
	if SpiderRewriteGold(sql) == sql {
		return sql // every change here is one the official rewrite also makes
	}
	s := outsideLiterals(sql, joinOperators)
	s = removeTopDistinct(s)
	if containsFold(s, "curdate") {
		s = outsideLiterals(s, func(t string) string { return curYearKeepRE.ReplaceAllString(t, "2020$1") })
	}
	return s
}

// SpiderCorrectPred is SpiderCorrectGold after plugging only real placeholders: a bare
// word "value" (case-sensitive, as the official replacement) that is not qualified
// (t.value) and only when the query did not run as written (ran is false): a query that
// runs names a column value, so its "value" is no placeholder.
func SpiderCorrectPred(sql string, ran bool) string {
	if SpiderRewritePred(sql) == sql {
		return sql
	}
	if !ran && strings.Contains(sql, "value") {
		sql = plugPlaceholders(sql)
	}
	return SpiderCorrectGold(sql)
}

// curYearKeepRE is curYearRE keeping the white space after the pattern (group 1).
var curYearKeepRE = regexp.MustCompile(`(?i)YEAR` + pySpaceClass + `*\(` + pySpaceClass + `*CURDATE` +
	pySpaceClass + `*\(` + pySpaceClass + `*\)` + pySpaceClass + `*\)(` + pySpaceClass + `*)`)

func joinOperators(s string) string {
	s = strings.ReplaceAll(s, "> =", ">=")
	s = strings.ReplaceAll(s, "< =", "<=")
	return strings.ReplaceAll(s, "! =", "!=")
}

// literal is what a token holds that a rewrite must not touch.
type literal uint8

const (
	notLiteral literal = iota
	stringLiteral
	quotedName
	comment
)

// literalOf classifies the token t of s: a string ('...', $tag$...$tag$), a quoted
// identifier (`...`, "...", [...], ´...´) or a comment; anything else is notLiteral.
func literalOf(s string, t sqlTok) literal {
	if t.kind == tokLineComm || t.kind == tokCommentEtc {
		return comment
	}
	v := s[t.start:t.end]
	if len(v) < 2 {
		return notLiteral
	}
	switch {
	case v[0] == '\'':
		return stringLiteral
	case v[0] == '$' && v[len(v)-1] == '$':
		return stringLiteral
	case v[0] == '"' || v[0] == '`' || v[0] == '[' || strings.HasPrefix(v, "´"):
		return quotedName
	}
	return notLiteral
}

// outsideLiterals applies f to each run of s between literals (strings, quoted names,
// comments), which it copies as they are.
func outsideLiterals(s string, f func(string) string) string {
	var b strings.Builder
	b.Grow(len(s))
	from := 0 // start of the current run outside literals
	for _, t := range sqlparseTokens(s) {
		if literalOf(s, t) == notLiteral {
			continue
		}
		b.WriteString(f(s[from:t.start]))
		b.WriteString(s[t.start:t.end])
		from = t.end
	}
	b.WriteString(f(s[from:]))
	return b.String()
}

// removeTopDistinct is removeDistinctTokens deleting only a DISTINCT that follows a
// SELECT outside parentheses: the one that makes an answer list each row once, which
// Spider's leniency is about. Inside an aggregate or a subquery it changes the answer.
func removeTopDistinct(s string) string {
	return dropDistinct(s, func(depth int, prev string) bool { return depth == 0 && asciiEqualFold(prev, "select") })
}

// step advances the parenthesis depth and the last significant token (not white space,
// not a comment) past t.
func step(s string, t sqlTok, depth int, prev string) (int, string) {
	switch t.kind {
	case tokSpace, tokNewline, tokLineComm, tokCommentEtc:
		return depth, prev
	case tokPunct:
		switch s[t.start] {
		case '(':
			depth++
		case ')':
			depth--
		}
	}
	return depth, s[t.start:t.end]
}

// plugPlaceholders replaces each bare, unqualified word "value" with 1.
func plugPlaceholders(s string) string {
	toks := sqlparseTokens(s)
	var b strings.Builder
	b.Grow(len(s))
	for k, t := range toks {
		v := s[t.start:t.end]
		if v == "value" && !qualified(s, toks, k) {
			v = "1"
		}
		b.WriteString(v)
	}
	return b.String()
}

// qualified reports whether token k is next to a '.': a column of a table (t.value), or
// a table named value (value.x).
func qualified(s string, toks []sqlTok, k int) bool {
	return (k > 0 && s[toks[k-1].start:toks[k-1].end] == ".") ||
		(k+1 < len(toks) && s[toks[k+1].start:toks[k+1].end] == ".")
}

// SpiderRewriteCorners names the corners of the official rewrite at work in sql (pred:
// as a prediction, with its "value" replacement; ran: sql ran as written), sorted: the
// official rewrite makes each change and corrected mode does not.
func SpiderRewriteCorners(sql string, pred, ran bool) []string {
	seen := map[string]bool{}
	toks := sqlparseTokens(sql)
	for k, t := range toks {
		v := sql[t.start:t.end]
		lit := literalOf(sql, t)
		if lit != notLiteral && (strings.Contains(v, "> =") || strings.Contains(v, "< =") || strings.Contains(v, "! =")) {
			seen[CornerOperatorLiteral] = true
		}
		if lit != notLiteral && containsFold(v, "curdate") && curYearRE.MatchString(v) {
			seen[CornerCurdateLiteral] = true
		}
		if !pred || !strings.Contains(v, "value") {
			continue
		}
		switch {
		case lit == comment:
			seen[CornerValueInComment] = true
		case lit == stringLiteral:
			seen[CornerValueInString] = true
		case lit == quotedName:
			seen[CornerValueQuoted] = true
		case v != "value":
			seen[CornerValueInName] = true
		case ran || qualified(sql, toks, k):
			seen[CornerValueColumn] = true
		}
	}
	distinctCorners(outsideLiterals(sql, joinOperators), seen)
	for _, m := range curYearKeepRE.FindAllStringSubmatchIndex(sql, -1) {
		if m[3] > m[2] {
			seen[CornerCurdateSpace] = true
		}
	}
	out := make([]string, 0, len(seen))
	for c := range seen {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// distinctCorners adds the corners of each DISTINCT the official rewrite deletes from s
// and corrected mode keeps.
func distinctCorners(s string, seen map[string]bool) {
	if !containsFold(s, "distinct") {
		return
	}
	toks := sqlparseTokens(s)
	depth, prev := 0, ""
	for _, t := range toks[:firstStatementTokens(s, toks)] {
		if v := s[t.start:t.end]; asciiEqualFold(v, "distinct") {
			switch {
			case prev == "(":
				seen[CornerDistinctInAgg] = true
			case asciiEqualFold(prev, "select") && depth > 0:
				seen[CornerDistinctNested] = true
			case !asciiEqualFold(prev, "select"):
				seen[CornerDistinctName] = true
			}
		}
		depth, prev = step(s, t, depth, prev)
	}
}
