package match

import (
	"fmt"
	"strings"
)

// ETMMode chooses between the ETM authors' script and our corrections of it.
//
// Official (the default) reproduces the script's verdicts, quirks included, so numbers
// compare with published ETM figures. Each quirk is named where it is reproduced (search
// for "quirk (official)") and tested in etm_mode_test.go:
//   - alias: a result alias named anywhere in the query (ORDER BY, HAVING, WHERE, a
//     subquery) stands for a reference wrapping its expression, never the expression
//     itself (the script's rule 106 puts the expression inside the column node);
//   - resolve: an unqualified column is given the table of its own SELECT's FROM (the
//     only table, or the only joined table that has the column), never an outer query's
//     (script rule 101): a correlated column is resolved wrongly;
//   - joinfacts: through an inner equi-join ON a = b, UNIQUE and NOT NULL pass from
//     either column to the other (script rule 19), for the rest of the comparison: the
//     gold query is normalised first and the prediction inherits what the gold's joins
//     taught (the script mutates one schema copy for both);
//   - rule4: GROUP BY keeps only the first UNIQUE column, columns of other tables too;
//   - joinskey: once rule 14 removed every join, rules 2 and 13 still see a join list
//     (empty) and do not fire;
//   - rule10: MIN/MAX to ORDER BY ... LIMIT 1 also under GROUP BY / HAVING, whatever the
//     other selected items, tables empty or not.
//
// Corrected keeps what is right: P6 (an alias reads as its expression, as SQLite does),
// SQLite's name resolution, NOT NULL (not UNIQUE) carried across an inner equi-join within
// the SELECT that has it, rule 4 dropping only columns of the unique column's table, rule
// 2 after rule 14, rule 10 only where one row is certain, and a composite key (A, B)
// making A unique within each group of GROUP BY B. docs/etm-modes.md lists each with its
// reason.
type ETMMode string

// The ETM modes.
const (
	ETMOfficial  ETMMode = "official"
	ETMCorrected ETMMode = "corrected"
)

// ETMModes lists the modes, default first.
var ETMModes = []ETMMode{ETMOfficial, ETMCorrected}

// ParseETMMode reads a --etm-mode value ("" is the default, official).
func ParseETMMode(s string) (ETMMode, error) {
	switch ETMMode(strings.ToLower(strings.TrimSpace(s))) {
	case "", ETMOfficial:
		return ETMOfficial, nil
	case ETMCorrected:
		return ETMCorrected, nil
	}
	return "", fmt.Errorf("etm mode %q: want official or corrected", s)
}

// joinFacts are the column facts (canonical "table.col") an inner equi-join taught, in
// official mode: the script's rule 19 adds them to its schema copy.
type joinFacts struct {
	unique, notNull map[string]bool
}

func newJoinFacts(seed *joinFacts) *joinFacts {
	f := &joinFacts{unique: map[string]bool{}, notNull: map[string]bool{}}
	if seed != nil {
		for k := range seed.unique {
			f.unique[k] = true
		}
		for k := range seed.notNull {
			f.notNull[k] = true
		}
	}
	return f
}

// ruleLearnJoinFacts adds what every inner-join ON equality of q's cores teaches, until
// nothing changes: quirk (official) joinfacts. It runs after rule 14, as the script's
// rule 19 does: a join rule 14 removed in the same round teaches nothing.
func ruleLearnJoinFacts(rc *ruleCtx, q *equery) {
	if !rc.official {
		return
	}
	var eqs [][2]*enode
	for _, c := range q.cores {
		for _, f := range c.from {
			if f.join != "" {
				continue
			}
			for _, d := range conjuncts(f.on) {
				if d.is(eopBin) && d.val == "=" && rc.realCol(d.kids[0]) && rc.realCol(d.kids[1]) {
					eqs = append(eqs, [2]*enode{d.kids[0], d.kids[1]})
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, e := range eqs {
			for _, p := range [][2]*enode{{e[0], e[1]}, {e[1], e[0]}} {
				if rc.unique(p[0]) && !rc.facts.unique[p[1].val] {
					rc.facts.unique[p[1].val], changed = true, true
				}
				if rc.notNull(p[0]) && !rc.facts.notNull[p[1].val] {
					rc.facts.notNull[p[1].val], changed = true, true
				}
			}
		}
	}
}

// realCol reports whether n is a column of a schema table (not of a subquery).
func (rc *ruleCtx) realCol(n *enode) bool {
	t, _, ok := splitCol(n)
	return ok && rc.table(t) != nil
}

// coreJoinNotNull reports whether an inner equi-join of c makes column n non-NULL in c's
// rows: the other side of the equality is NOT NULL, or n itself is compared with "=" (a
// NULL never equals anything, so the row is dropped). Corrected mode.
func (rc *ruleCtx) coreJoinNotNull(c *ecore, n *enode) bool {
	if c == nil || len(c.from) < 2 {
		return false
	}
	for _, f := range c.from {
		if f.join != "" || len(f.using) > 0 {
			continue
		}
		for _, d := range conjuncts(f.on) {
			if d.is(eopBin) && d.val == "=" && (d.kids[0].key() == n.key() || d.kids[1].key() == n.key()) &&
				d.kids[0].is(eopCol) && d.kids[1].is(eopCol) {
				return true
			}
		}
	}
	return false
}
