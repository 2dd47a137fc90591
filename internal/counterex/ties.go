package counterex

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
)

// A query that orders rows and keeps the first n (ORDER BY x LIMIT 1) does not say which
// of several tied rows it keeps, and under Spider's ordered comparison the order of tied
// rows is not said either. Two queries can then differ only in how SQLite broke a tie,
// which is no evidence of a different meaning. Inserting the rows in reverse order
// (sandbox.go) changes ties broken by insertion order, but not ties broken by the order
// of a key or an index. So a variant also passes the tie probe: each ordering query's
// sort keys are selected instead of its columns (a single SELECT only), and a tie where it
// matters rejects the variant. A query the probe cannot rewrite, or whose probe fails,
// rejects it too: soundness first.

var (
	orderTailRe = regexp.MustCompile(`(?is)^(.*?)\bORDER\s+BY\s+(.*?)(?:\s+LIMIT\s+(\d+)(?:\s+OFFSET\s+\d+)?)?\s*;?\s*$`)
	selectHead  = regexp.MustCompile(`(?is)^\s*SELECT\s+(DISTINCT\s+)?`)
	fromRe      = regexp.MustCompile(`(?i)\bFROM\b`)
	dirSuffix   = regexp.MustCompile(`(?i)\s+(ASC|DESC)\s*$`)
	selectWord  = regexp.MustCompile(`(?i)\bSELECT\b`)
	orderByWord = regexp.MustCompile(`(?i)\bORDER\s+BY\b`)
)

// tieProbe is q with its sort keys as its columns and no LIMIT, and q's LIMIT (0: none);
// ok is false when q orders rows but cannot be rewritten.
func tieProbe(q string) (probe string, limit int, ok bool) {
	m := orderTailRe.FindStringSubmatch(q)
	if m == nil || len(selectWord.FindAllStringIndex(q, -1)) != 1 {
		return "", 0, false
	}
	head, keys := m[1], m[2]
	loc := selectHead.FindStringIndex(head)
	from := fromRe.FindStringIndex(head)
	if loc == nil || from == nil || from[0] < loc[1] {
		return "", 0, false
	}
	var bare []string
	for _, k := range splitTopLevel(keys) {
		bare = append(bare, dirSuffix.ReplaceAllString(strings.TrimSpace(k), ""))
	}
	probe = "SELECT " + strings.Join(bare, ", ") + " " + head[from[0]:] + " ORDER BY " + keys
	if m[3] != "" {
		for _, c := range m[3] {
			limit = limit*10 + int(c-'0')
		}
	}
	return probe, limit, true
}

// tieMatters reports whether sql's result on the loaded variant depends on how a tie was
// broken: a tie across its LIMIT, or (ordered comparison, results equal as bags) any tie.
func (p *pair) tieMatters(ctx context.Context, sb *sandbox, sql string, ordered bool) bool {
	if !orderByWord.MatchString(sql) {
		return false
	}
	probe, limit, ok := tieProbe(sql)
	if !ok {
		return true
	}
	res, err := engine.QueryConn(ctx, sb.c, probe, queryLimits)
	if err != nil {
		return true
	}
	if limit > 0 {
		return limit < res.NumRows() && sameRow(res, limit-1, limit)
	}
	if !ordered {
		return false
	}
	for i := 1; i < res.NumRows(); i++ {
		if sameRow(res, i-1, i) {
			return true
		}
	}
	return false
}

// sameRow reports whether rows i and k of res are equal as BIRD compares rows.
func sameRow(res *engine.Result, i, k int) bool {
	r := engine.NewResult(nil, [][]any{res.Row(i)})
	s := engine.NewResult(nil, [][]any{res.Row(k)})
	return judge.BirdEqual(r, s)
}

// tieOnly reports whether the forward outcome o may come from tie-breaking alone
// (reject), or, when only a gold's LIMIT cuts through a tie and the prediction returns
// more distinct rows than that LIMIT keeps (so no way of breaking the tie makes the gold
// match it), names that tie: the difference is real, but it rests on the gold's LIMIT,
// which marks the gold as suspect rather than the prediction as wrong.
func (p *pair) tieOnly(ctx context.Context, sb *sandbox, o *outcome) (reject bool, goldTie string) {
	for i, g := range p.golds {
		ordered := p.sem == judge.Spider && p.order[i] && judge.SpiderEqual(o.golds[i], o.pred, false)
		if p.tieMatters(ctx, sb, p.pred, ordered) {
			return true, ""
		}
		if !p.tieMatters(ctx, sb, g, ordered) {
			continue
		}
		_, limit, ok := tieProbe(g)
		if ordered || !ok || limit == 0 || distinctRows(o.pred) <= limit {
			return true, ""
		}
		keys := orderTailRe.FindStringSubmatch(g)[2]
		goldTie = fmt.Sprintf("tie on %s under the gold's LIMIT %d", strings.TrimSpace(keys), limit)
	}
	return false, goldTie
}

// distinctRows counts r's distinct rows as BIRD compares rows.
func distinctRows(r *engine.Result) int {
	n := 0
	for i := range r.NumRows() {
		dup := false
		for k := range i {
			if sameRow(r, k, i) {
				dup = true
				break
			}
		}
		if !dup {
			n++
		}
	}
	return n
}
