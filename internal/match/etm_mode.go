package match

import (
	"context"
	"fmt"
	"maps"
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
//     other selected items, tables empty or not;
//   - rule20: t1.c1 [NOT] IN (SELECT t1.c1 FROM t1 ... WHERE d) becomes d (NOT d)
//     wherever it stands in WHERE, the subquery's joins ignored, c1 unique or not;
//   - setorder: a compound query's ORDER BY is compared as written (names' case,
//     qualifiers), the script's rules running on each SELECT only;
//   - rule14sub: rule 14 (run before rules 19 and 20, as the script orders them) does not
//     look into subqueries, and renames the removed table's key there.
//
// Corrected keeps what is right: P6 (an alias reads as its expression, as SQLite does),
// SQLite's name resolution, NOT NULL (not UNIQUE) carried across an inner equi-join within
// the SELECT that has it, rule 4 dropping only columns of the unique column's table, rule
// 2 after rule 14, rule 10 only where one row is certain, a composite key (A, B)
// making A unique within each group of GROUP BY B, rule 20 only for a NOT NULL key (or a
// set of that column), the compound's ORDER BY read in any case, and rule 14 blocked by
// a subquery only where it reads the removed table other than through its key.
// docs/etm-modes.md lists each with its reason.
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

// quirk is one behaviour of the ETM script that corrected mode does not copy. Official
// mode has them all, corrected mode none; turning one off at a time says which quirk
// decided a question where the modes differ (ETMDiffRule).
type quirk uint

// The quirks, named as in the comments where each is reproduced.
const (
	quirkAlias quirk = 1 << iota
	quirkResolve
	quirkJoinFacts
	quirkRule4
	quirkJoinsKey
	quirkRule10
	quirkCompositeKey
	quirkWindow
	quirkRule13
	quirkRule20
	quirkSetOrder
	quirkRule14Sub
	quirksAll = quirkRule14Sub<<1 - 1
)

// quirkNames are the names reports and docs/etm-modes.md use, with the Table 5 rule or
// script step each concerns.
var quirkNames = []struct {
	q    quirk
	name string
}{
	{quirkAlias, "alias (P6 / script rule 106)"},
	{quirkResolve, "resolve (P1 / script rule 101)"},
	{quirkJoinFacts, "joinfacts (rule 19)"},
	{quirkRule4, "rule4 (rule 4)"},
	{quirkJoinsKey, "joinskey (rules 2, 13 after 14)"},
	{quirkRule10, "rule10 (rule 10)"},
	{quirkCompositeKey, "compositekey (rule 2)"},
	{quirkWindow, "window (OVER compared as written)"},
	{quirkRule13, "rule13 (rule 13)"},
	{quirkRule20, "rule20 (rule 20)"},
	{quirkSetOrder, "setorder (ORDER BY of a compound query)"},
	{quirkRule14Sub, "rule14sub (rule 14, subqueries)"},
}

func (q quirk) has(x quirk) bool { return q&x != 0 }

func (m ETMMode) quirks() quirk {
	if m == ETMCorrected {
		return 0
	}
	return quirksAll
}

// joinFacts are the column facts (canonical "table.col") an inner equi-join taught, in
// official mode: the script's rule 19 adds them to its schema copy.
type joinFacts struct {
	unique, notNull map[string]bool
}

// size counts the facts (0 for none).
func (f *joinFacts) size() int {
	if f == nil {
		return 0
	}
	return len(f.unique) + len(f.notNull)
}

// newJoinFacts copies seed (nil: none). A map stays nil until a fact is learnt (most
// queries learn none, and this runs for every prediction): reading a nil map is fine,
// and learn allocates it.
func newJoinFacts(seed *joinFacts) *joinFacts {
	f := &joinFacts{}
	if seed != nil {
		f.unique = cloneFacts(seed.unique)
		f.notNull = cloneFacts(seed.notNull)
	}
	return f
}

func cloneFacts(m map[string]bool) map[string]bool {
	if len(m) == 0 {
		return nil
	}
	return maps.Clone(m)
}

// learn adds column col to the facts set *m, allocating it on first use.
func learn(m *map[string]bool, col string) {
	if *m == nil {
		*m = map[string]bool{}
	}
	(*m)[col] = true
}

// ruleLearnJoinFacts adds what every inner-join ON equality of q's cores teaches, until
// nothing changes: quirk (official) joinfacts. It runs after rule 14, as the script's
// rule 19 does: a join rule 14 removed in the same round teaches nothing.
func ruleLearnJoinFacts(rc *ruleCtx, q *equery) {
	if !rc.quirks.has(quirkJoinFacts) {
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
					learn(&rc.facts.unique, p[1].val)
					changed = true
				}
				if rc.notNull(p[0]) && !rc.facts.notNull[p[1].val] {
					learn(&rc.facts.notNull, p[1].val)
					changed = true
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

// ModeDiff says how official mode judges a comparison that corrected mode judged
// corrected: Official is its verdict, and Rule (when the two differ) names the quirk(s)
// that decided, as quirkNames spells them: each one that, turned off alone in official
// mode, gives corrected's verdict ("several" when no single one does).
type ModeDiff struct {
	Official int
	Rule     string
}

// CompareModes runs ETM on pred against gold in both modes and, where the verdicts
// differ, names the quirk that decided. Both verdicts carry their errors as Compare's.
func (d *ETMDB) CompareModes(ctx context.Context, pred, gold string) (official, corrected ETMVerdict, diff *ModeDiff) {
	official = d.CompareMode(ctx, pred, gold, ETMOfficial)
	corrected = d.CompareMode(ctx, pred, gold, ETMCorrected)
	if official.Err != nil || corrected.Err != nil || official.Match == corrected.Match {
		return official, corrected, nil
	}
	return official, corrected, &ModeDiff{Official: b2i(official.Match), Rule: d.decidingQuirk(ctx, pred, gold, official.Match)}
}

// decidingQuirk names the quirks that, turned off alone, change official mode's verdict.
func (d *ETMDB) decidingQuirk(ctx context.Context, pred, gold string, official bool) string {
	var names []string
	for _, qn := range quirkNames {
		qs := quirksAll &^ qn.q
		g, err := d.normalizeQuirks(ctx, gold, ETMOfficial, qs, nil)
		if err != nil {
			continue
		}
		p, err := d.normalizeQuirks(ctx, pred, ETMOfficial, qs, g.facts)
		if err != nil {
			continue
		}
		if (p.Key == g.Key) != official {
			names = append(names, qn.name)
		}
	}
	if len(names) == 0 {
		// No quirk decides alone in official mode: which one, alone added to corrected
		// mode, gives official's verdict?
		for _, qn := range quirkNames {
			g, err := d.normalizeQuirks(ctx, gold, ETMOfficial, qn.q, nil)
			if err != nil {
				continue
			}
			p, err := d.normalizeQuirks(ctx, pred, ETMOfficial, qn.q, g.facts)
			if err != nil {
				continue
			}
			if (p.Key == g.Key) == official {
				names = append(names, qn.name)
			}
		}
	}
	if len(names) == 0 {
		return "several"
	}
	return strings.Join(names, "; ")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
