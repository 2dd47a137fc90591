package match

import (
	"context"
	"math/bits"
	"slices"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/spidersql"
)

// This file is Spider evaluation.py's partial matching (eval_partial_match and its
// eval_sel, eval_where, eval_group, eval_having, eval_order, eval_and_or, eval_IUEN,
// eval_keywords) over the same rebuilt queries ESM compares. Each component counts its
// units in the gold (label) and the prediction (pred) and how many of the prediction's
// units the gold has; the component scores 1 when the counts are equal and every unit
// matched (get_scores). How the per-question scores are averaged is metrics.Partial's.
//
// exactMatch is these ten scores all 1 plus equal FROM tables; TestPartialAgreesWithESM
// holds the two together.

// partial scores every component of the prediction p against the gold g; components
// neither query has are left out (record.PartialScore).
func partial(p, g *normSQL) map[string]record.PartialScore {
	// The scores are gathered first and the map made at its final size: most queries
	// have few non-trivial components, and a map sized for all ten costs twice the memory.
	type named struct {
		name string
		ps   record.PartialScore
	}
	var buf [12]named
	kept := buf[:0]
	set := func(name string, label, pred, cnt int) {
		if ps := (record.PartialScore{Score: scoreOf(cnt, pred, label), LabelTotal: label, PredTotal: pred}); !ps.Trivial() {
			kept = append(kept, named{name, ps})
		}
	}
	set("select", len(g.sel), len(p.sel), common(p.sel, g.sel))
	set("select(no AGG)", len(g.sel), len(p.sel), common(p.selVal, g.selVal))
	set("where", len(g.where), len(p.where), common(p.where, g.where))
	set("where(no OP)", len(g.where), len(p.where), common(p.whereVal, g.whereVal))
	set("group(no Having)", len(g.group), len(p.group), common(colNames(p.group), colNames(g.group)))

	lt, pt := boolInt(len(g.group) > 0), boolInt(len(p.group) > 0)
	set("group", lt, pt, boolInt(lt == 1 && pt == 1 && slices.Equal(p.group, g.group) && p.having == g.having))

	lt, pt = boolInt(g.hasOrder), boolInt(p.hasOrder)
	set("order", lt, pt, boolInt(g.hasOrder && p.order == g.order && p.hasLimit == g.hasLimit))

	// eval_and_or returns (1, 1, 1) for equal conjunction sets, else the prediction's and
	// the gold's set sizes in the label and pred places: the reference's swap, kept.
	if p.conjs == g.conjs {
		set("and/or", 1, 1, 1)
	} else {
		set("and/or", bits.OnesCount8(p.conjs), bits.OnesCount8(g.conjs), 0)
	}

	lt, pt, cnt := 0, 0, 0
	for i := range g.sets {
		ps, gs := p.sets[i], g.sets[i]
		lt += boolInt(gs != nil)
		pt += boolInt(ps != nil)
		cnt += boolInt(ps != nil && gs != nil && exactMatch(ps, gs))
	}
	set("IUEN", lt, pt, cnt)

	set("keywords", bits.OnesCount16(g.keywords), bits.OnesCount16(p.keywords), bits.OnesCount16(p.keywords&g.keywords))
	out := make(map[string]record.PartialScore, len(kept))
	for _, k := range kept {
		out[k.name] = k.ps
	}
	return out
}

// scoreOf is get_scores: 1 when the prediction has exactly the gold's number of units
// and all of them matched.
func scoreOf(cnt, pred, label int) int {
	return boolInt(pred == label && cnt == pred)
}

// common is the size of the multiset intersection of a and b: what the reference's
// loop "if unit in label: count it and remove it from label" counts.
func common(a, b []string) int {
	used := make([]bool, len(b))
	n := 0
next:
	for _, x := range a {
		for j, y := range b {
			if !used[j] && x == y {
				used[j] = true
				n++
				continue next
			}
		}
	}
	return n
}

// colNames cuts the table part off column ids as eval_group does: id.split(".")[1],
// the text between the first dot and the next one (all of the rest for the usual
// "__table.column__").
func colNames(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		if _, after, ok := strings.Cut(id, "."); ok {
			id, _, _ = strings.Cut(after, ".")
		}
		out[i] = id
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// matchDetail is MatchPartial parsing the prediction under ctx, with the clauses that
// differ (clauseDiff; nil when the prediction does not parse); its error is ctx's when
// ctx ended first (the caller has stopped waiting: there is no verdict).
func (g *Gold) matchDetail(ctx context.Context, pred string, s *spidersql.Schema, fk FKMap, opt Options) (bool, map[string]record.PartialScore, []string, error) {
	q, err := spidersql.ParseContext(ctx, pred, s)
	if cerr := ctx.Err(); cerr != nil {
		return false, nil, nil, cerr
	}
	if err != nil {
		q = &spidersql.SQL{}
	}
	p := rebuild(q, fk, opt)
	var clauses []string
	if err == nil {
		clauses = clauseDiff(p, g.n)
	}
	return exactMatch(p, g.n), partial(p, g.n), clauses, nil
}

// clauseDiff names the clauses (record.DiffClauses) where p and g differ under exact
// set match's rules (values compared only under --esm-values, as ESM compares them).
func clauseDiff(p, g *normSQL) []string {
	var out []string
	add := func(differ bool, name string) {
		if differ {
			out = append(out, name)
		}
	}
	add(!sameBag(p.sel, g.sel), "select")
	add(len(g.tables) > 0 && !slices.Equal(p.tables, g.tables), "from/join")
	add(!sameBag(p.where, g.where) || p.conjs != g.conjs, "where")
	add(!groupNoHaving(p, g), "group")
	add(p.having != g.having, "having")
	add(!orderMatch(p, g), "order/limit")
	add(!setOpsMatch(p, g), "set_op")
	return out
}
