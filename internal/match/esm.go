package match

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/spidersql"
)

// ErrGold is returned (wrapped) when the gold SQL cannot be parsed: the official script
// stops there, so the question has no ESM verdict.
var ErrGold = errors.New("gold sql not parsable")

// Options select the stricter ESM variants the ETM paper discusses. The zero value is the
// official metric.
type Options struct {
	// Values compares literal values in conditions (evaluation.py with DISABLE_VALUE off).
	Values bool
	// Distinct compares DISTINCT inside column units, as in COUNT(DISTINCT c)
	// (evaluation.py with DISABLE_DISTINCT off). As in the reference, a SELECT DISTINCT
	// of the top-level query is still not compared: eval_sel reads only the select list.
	Distinct bool
}

// Label names the variant for summaries: "official", "values", "distinct" or
// "values+distinct".
func (o Options) Label() string {
	var parts []string
	if o.Values {
		parts = append(parts, "values")
	}
	if o.Distinct {
		parts = append(parts, "distinct")
	}
	if len(parts) == 0 {
		return "official"
	}
	return strings.Join(parts, "+")
}

// PredText prepares a prediction as evaluation.py does before parsing it: surrounding
// white space stripped and the placeholder " value " replaced by " 1 ". (Unlike the
// script, a TAB inside the text is not a cut: the prediction reader already separated a
// trailing db_id, and any other TAB is white space inside the SQL.)
func PredText(sql string) string {
	return strings.ReplaceAll(strings.TrimSpace(sql), " value ", " 1 ")
}

// Gold is a parsed and rebuilt gold query, reusable across systems.
type Gold struct {
	n *normSQL
}

// PrepareGold parses and rebuilds a gold query. The error wraps ErrGold.
func PrepareGold(sql string, s *spidersql.Schema, fk FKMap, opt Options) (*Gold, error) {
	q, err := spidersql.Parse(sql, s)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGold, err)
	}
	return &Gold{n: rebuild(q, fk, opt)}, nil
}

// Match reports whether the prediction (already passed through PredText) exactly
// set-matches the gold. A prediction the parser rejects is compared as an empty query,
// as the official script does (and so never matches a real gold query).
func (g *Gold) Match(pred string, s *spidersql.Schema, fk FKMap, opt Options) bool {
	q, err := spidersql.Parse(pred, s)
	if err != nil {
		q = &spidersql.SQL{}
	}
	return exactMatch(rebuild(q, fk, opt), g.n)
}

// exactMatch is eval_exact_match: every partial score must be perfect, then the FROM
// table units must be equal as sorted lists. p and g are already rebuilt.
func exactMatch(p, g *normSQL) bool {
	return sameBag(p.sel, g.sel) && // select (select(no AGG) follows from it)
		sameBag(p.where, g.where) && // where (where(no OP) follows from it)
		groupNoHaving(p, g) &&
		groupWithHaving(p, g) &&
		orderMatch(p, g) &&
		p.conjs == g.conjs && // and/or
		setOpsMatch(p, g) && // IUEN
		p.keywords == g.keywords &&
		(len(g.tables) == 0 || slices.Equal(p.tables, g.tables))
}

// sameBag reports whether a and b hold the same items with the same multiplicities:
// what the reference's greedy count-and-remove gives when count == both totals.
func sameBag(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) <= 1 {
		return slices.Equal(a, b)
	}
	used := make([]bool, len(b))
next:
	for _, x := range a {
		for j, y := range b {
			if !used[j] && x == y {
				used[j] = true
				continue next
			}
		}
		return false
	}
	return true
}

// groupNoHaving is eval_group: GROUP BY columns as a bag, compared by column name only
// (the table part of the id is cut off, colNames).
func groupNoHaving(p, g *normSQL) bool {
	return sameBag(colNames(p.group), colNames(g.group))
}

// groupWithHaving is eval_having: both with or both without GROUP BY; when both have
// one, the same columns in the same order and the same HAVING.
func groupWithHaving(p, g *normSQL) bool {
	pt, lt := len(p.group) > 0, len(g.group) > 0
	if pt != lt {
		return false
	}
	return !lt || (slices.Equal(p.group, g.group) && p.having == g.having)
}

// orderMatch is eval_order: both with or both without ORDER BY; when both have one,
// equal ORDER BY and LIMIT present on both or on neither (its value is not compared).
func orderMatch(p, g *normSQL) bool {
	if p.hasOrder != g.hasOrder {
		return false
	}
	return !g.hasOrder || (p.order == g.order && p.hasLimit == g.hasLimit)
}

// setOpsMatch is eval_IUEN: the same set operations, each operand an exact match.
func setOpsMatch(p, g *normSQL) bool {
	for i := range p.sets {
		ps, gs := p.sets[i], g.sets[i]
		if (ps == nil) != (gs == nil) {
			return false
		}
		if ps != nil && !exactMatch(ps, gs) {
			return false
		}
	}
	return true
}
