package audit

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// The checks that read the question's text beside the gold: partial_answer and
// ratio_scope. Both are heuristics over English questions.

var (
	// A request: a sentence or clause that opens with a question word or an imperative.
	requestStart = regexp.MustCompile(`(?i)^\W*(?:(?:among|between|of|for|in|from|with|based on|considering)\b[^,]*,\s*)?(what|which|who|whom|whose|how|when|where|list|state|give|find|calculate|compute|provide|indicate|name|show|identify|tell|mention|count|determine|describe|specify|return)\b`)
	// A second request joined by "and": "..., and how many ...", "and list ...".
	andRequest = regexp.MustCompile(`(?i)\band\s+(how (?:many|much|old|tall|long)|what|which|who|when|where|list|state|give|find|calculate|provide|indicate|name|show|identify|mention|the difference|its|their|his|her)\b`)
	// "list the name and age of", "what are the height and weight of".
	// An imperative only opening the sentence (or after "please"): "name" and "state"
	// inside a sentence are nouns ("the first name Timmothy and the last name Ward").
	twoItems = regexp.MustCompile(`(?i)(?:^\W*(?:please\s+)?(?:list|state|give|provide|show|indicate|name|identify|mention|find)|\bwhat (?:is|are|were|was))\s+(?:the |their |its |his |her |all )?(\w+(?: \w+)?)\s*(?:,\s*\w+(?: \w+)?\s*)*(?:,\s*)?\s+and\s+(?:the |their |its |his |her )?(\w+)\b`)
	// A request for the names or ids of what was asked already.
	restatesNames = regexp.MustCompile(`(?i)^\W*(?:and\s+)?(?:please\s+)?(?:list|give|find|show|return|state|provide|identify|name)\s+(?:me\s+)?(?:all\s+)?(?:the\s+|their\s+|its\s+|his\s+|her\s+)?(?:[\w']+\s+){0,4}?(?:names?|ids?|titles?)\b`)
	sentenceStop  = regexp.MustCompile(`[?.;!]+\s*`)
)

// partialAnswer (heuristic): the question asks for more things than the gold returns
// columns: several requests (sentences or "and how many ..." clauses) or "list the A and
// B", and the gold's result has fewer columns.
func partialAnswer(question string, res *engine.Result) []finding {
	if res.NumRows() == 0 {
		return nil
	}
	// Requests: each sentence that asks for something counts once, a sentence naming
	// several items ("list the A and B", "..., and how many") counts them; the larger
	// of the two readings is what the question asks for. A later sentence that only
	// asks for names or ids restates an earlier request ("Which dogs ...? List the dog
	// names."), as does "..., and list their names".
	var sentences, most []string
	for _, s := range sentenceStop.Split(question, -1) {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		var items []string
		if m := twoItems.FindStringSubmatch(s); m != nil && !sameThing(m[1], m[2]) && !andRequest.MatchString("and "+m[2]) {
			items = []string{m[1], m[2]}
		} else {
			for _, loc := range andRequest.FindAllStringIndex(s, -1) {
				if !restatesNames.MatchString(s[loc[0]:]) {
					items = append(items, s[loc[0]:loc[1]])
				}
			}
			if len(items) > 0 {
				items = append([]string{clipWords(s, 8)}, items...)
			}
		}
		if len(items) > len(most) {
			most = items
		}
		if requestStart.MatchString(s) && !(len(sentences) > 0 && restatesNames.MatchString(s)) {
			sentences = append(sentences, clipWords(s, 8))
		}
	}
	asked := sentences
	if len(most) > len(asked) {
		asked = most
	}
	if len(asked) < 2 || len(res.Columns) >= len(asked) {
		return nil
	}
	return []finding{{check: CheckPartial, heuristic: true, evidence: fmt.Sprintf("heuristic: the question asks for %d things (%s) but the gold returns %d column(s) (%s)",
		len(asked), quoteAll(asked), len(res.Columns), strings.Join(res.Columns, ", "))}}
}

// sameThing: "heroes and villains" style pairs of one noun are one list, not two items;
// only identical words are treated so.
func sameThing(a, b string) bool { return strings.EqualFold(a, b) }

func clipWords(s string, n int) string {
	w := strings.Fields(s)
	if len(w) > n {
		return strings.Join(w[:n], " ") + " ..."
	}
	return s
}

func quoteAll(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, "; ")
}

var (
	// "percent(age) of X ...", "ratio of", "proportion of", "share of": X up to a verb,
	// participle or preposition is the population the question divides by.
	ratioOf = regexp.MustCompile(`(?i)\b(?:percent(?:age)?|ratio|proportion|share|rate|fraction)\s+of\s+(.*)`)
	ofStop  = regexp.MustCompile(`(?i)\b(?:were|was|are|is|be|have|has|had|published|made|that|which|who|whose|with|in|from|by|having|among|under|over|at|on|to|against|compared|than|do|does|did|belong|belonging|come|comes)\b`)
	// Only shares: "the ratio of A to B" divides two sets that need not nest.
	shareQuestion = regexp.MustCompile(`(?i)\b(?:percent|percentage|proportion|share|fraction)\b`)
	amongOf       = regexp.MustCompile(`(?i)\b(?:among|of all|out of)\s+(?:all\s+|the\s+)?(.*)`)
)

// ratioScope: the gold divides (a percentage or ratio) and either filters its numerator
// only by something the question names as the population ("percent of female heroes ..."
// with 'Female' only in the numerator), or counts numerator rows outside the denominator's
// (a conditional count over a conditional count whose conditions do not nest).
func ratioScope(ctx context.Context, q querier, path, question, gold string, lim engine.Limits) ([]finding, error) {
	c, ok := topClauses(gold)
	if !ok || !shareQuestion.MatchString(question) {
		return nil, nil
	}
	slash := -1
	for i := c.sel + 1; i < c.from; i++ {
		if c.toks[i].text == "/" {
			slash = i
			break
		}
	}
	// The division is at the select list's top level or inside a CAST around it.
	if slash < 0 || c.toks[slash].depth > 1 {
		return nil, nil
	}
	numToks, denToks := c.toks[c.sel+1:slash], c.toks[slash+1:c.from]
	whereToks := []token(nil)
	if c.where >= 0 {
		whereToks = c.toks[c.where+1 : c.after(c.where)]
	}
	num, den, where := literals(numToks), literals(denToks), literals(whereToks)
	var out []finding
	// Literals filtering only the numerator, named in the question's population phrase.
	pop := population(question)
	if pop != "" {
		for _, l := range num {
			if contains(den, l) || contains(where, l) || !mentions(pop, l) {
				continue
			}
			out = append(out, finding{check: CheckRatioScope, heuristic: true, evidence: fmt.Sprintf("heuristic: the question divides by %q, but the gold filters by '%s' only in the numerator (the denominator: %s)",
				pop, l, denominatorText(den, where))})
			break
		}
	}
	// Numerator rows outside the denominator: both conditional counts.
	np, dp := caseCond(gold, numToks), caseCond(gold, denToks)
	if np != "" && dp != "" && np != dp {
		probe := "SELECT count(*) " + gold[c.toks[c.from].start:cutAt(gold, c)]
		if p, ok := withFilter(probe, "("+np+") AND NOT coalesce(("+dp+"), 0)"); ok {
			res, err := q.Query(ctx, path, p, lim)
			if err != nil && fault(ctx, err) {
				return nil, err
			}
			if err == nil && res.NumRows() == 1 {
				if n, ok := res.Row(0)[0].(int64); ok && n > 0 {
					out = append(out, finding{check: CheckRatioScope, confidence: High, evidence: fmt.Sprintf("%d rows count in the numerator (%s) but not in the denominator (%s): the ratio is not a share of its denominator",
						n, np, dp)})
				}
			}
		}
	}
	return out, nil
}

// cutAt is where the query's GROUP BY / ORDER BY / LIMIT start (a count probe drops them).
func cutAt(sql string, c clauses) int {
	next := len(c.toks)
	for _, k := range []int{c.group, c.having, c.order, c.limit} {
		if k > c.from && k < next {
			next = k
		}
	}
	if next >= len(c.toks) {
		return c.toks[len(c.toks)-1].end
	}
	return c.toks[next].start
}

// population is the question's "percent of X" (or "among X") phrase, up to a verb or
// preposition; "" when there is none.
func population(question string) string {
	m := amongOf.FindStringSubmatch(question)
	if m == nil {
		m = ratioOf.FindStringSubmatch(question)
	}
	if m == nil {
		return ""
	}
	p := m[1]
	if loc := ofStop.FindStringIndex(p); loc != nil {
		p = p[:loc[0]]
	}
	if i := strings.IndexAny(p, ",?.;"); i >= 0 {
		p = p[:i]
	}
	return strings.TrimSpace(p)
}

// literals are the string literals among toks, unquoted.
func literals(toks []token) []string {
	var out []string
	for _, t := range toks {
		if t.kind == 's' && len(t.text) >= 2 {
			out = append(out, strings.ReplaceAll(t.text[1:len(t.text)-1], "''", "'"))
		}
	}
	return out
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// mentions: a word of the literal (three letters or more) appears as a word of phrase.
func mentions(phrase, lit string) bool {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(phrase), notLetter) {
		words[strings.TrimSuffix(w, "s")] = true
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(lit), notLetter) {
		if len(w) >= 3 && words[strings.TrimSuffix(w, "s")] {
			return true
		}
	}
	return false
}

func notLetter(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 0x7f) }

func denominatorText(den, where []string) string {
	all := append(append([]string(nil), den...), where...)
	if len(all) == 0 {
		return "no filter"
	}
	return "'" + strings.Join(all, "', '") + "'"
}

// caseCond is the condition of the first CASE WHEN ... THEN (or IIF(cond, ...)) in toks.
func caseCond(sql string, toks []token) string {
	for i, t := range toks {
		if t.is("WHEN") {
			for j := i + 1; j < len(toks); j++ {
				if toks[j].is("THEN") && toks[j].depth == t.depth {
					if j == i+1 {
						return ""
					}
					return sql[toks[i+1].start:toks[j-1].end]
				}
			}
			return ""
		}
		if t.is("IIF") && i+1 < len(toks) && toks[i+1].text == "(" {
			for j := i + 2; j < len(toks); j++ {
				if toks[j].text == "," && toks[j].depth == toks[i+1].depth+1 {
					if j == i+2 {
						return ""
					}
					return sql[toks[i+2].start:toks[j-1].end]
				}
			}
			return ""
		}
	}
	return ""
}
