package match

import (
	"bytes"
	"context"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
)

// ruleCtx is what an equivalence rule sees: the database's verifiable assumptions and a
// way to record that it fired.
type ruleCtx struct {
	ctx   context.Context
	db    *ETMDB
	fired *firedRules
	// quirks: the script behaviours to reproduce (all in official mode, none in
	// corrected); facts: what the script's rule 19 learnt from inner equi-joins.
	quirks quirk
	facts  *joinFacts
}

func (rc *ruleCtx) fire(id string) { rc.fired.add(id) }

// table returns the schema table of a canonical table name (nil for subqueries or
// unknown names).
func (rc *ruleCtx) table(name string) *dbschema.Table {
	if rc.db == nil || rc.db.schema == nil || name == "" {
		return nil
	}
	return rc.db.schema.Table(name)
}

// splitCol splits a canonical column "table.col".
func splitCol(n *enode) (table, col string, ok bool) {
	if !n.is(eopCol) {
		return "", "", false
	}
	for i := 0; i < len(n.val); i++ {
		if n.val[i] == '.' {
			return n.val[:i], n.val[i+1:], n.val[:i] != "?"
		}
	}
	return "", "", false
}

// unique reports whether the column node is, alone, a key of its table (rules 1-5).
func (rc *ruleCtx) unique(n *enode) bool {
	t, c, ok := splitCol(n)
	if !ok {
		return false
	}
	if rc.quirks.has(quirkJoinFacts) && rc.facts != nil && rc.facts.unique[n.val] {
		return true
	}
	return rc.table(t).IsUnique(c)
}

// notNull reports whether the column node cannot be NULL: declared NOT NULL, or the
// sole column of an INTEGER PRIMARY KEY (SQLite's row id never is NULL).
func (rc *ruleCtx) notNull(n *enode) bool {
	t, c, ok := splitCol(n)
	if !ok {
		return false
	}
	if rc.quirks.has(quirkJoinFacts) && rc.facts != nil && rc.facts.notNull[n.val] {
		return true
	}
	tab := rc.table(t)
	if tab == nil {
		return false
	}
	col := tab.Column(c)
	if col == nil {
		return false
	}
	return col.NotNull || (col.PrimaryKey && len(tab.PrimaryKey) == 1)
}

// notNullIn is notNull for a column read in core c: in corrected mode an inner
// equi-join of c on the column also makes it non-NULL there (a NULL joins nothing).
func (rc *ruleCtx) notNullIn(c *ecore, n *enode) bool {
	if rc.notNull(n) {
		return true
	}
	return !rc.quirks.has(quirkJoinFacts) && n.is(eopCol) && rc.coreJoinNotNull(c, n)
}

// queryRules are the equivalence rules, applied to every query (innermost first) in
// this order, until a round changes nothing.
var queryRules = []func(rc *ruleCtx, q *equery){
	rule21SelfSetOp,
	rule3SetOpToCondition,
	rule5ExceptToNotIn,
	rule11StarToColumns,
	rule1MinMaxSubquery,
	rule10MinMaxToOrderLimit,
	rule2DistinctUnique,
	rule4GroupByUnique,
	rule6CountColumn,
	rule7NotNullCondition,
	rule8AvgFromSumCount,
	rule9CountCase,
	rule12NumericString,
	rule15Substr,
	rule16LikePrefix,
	rule17Julianday,
	rule18InList,
	rule22Between,
	rule13InToJoin,
	rule14First,
	rule19JoinedColumn,
	rule20SelfIn,
	rule25LeftJoinNull,
	rule14Last,
	ruleLearnJoinFacts,
}

// rule14First and rule14Last are rule 14 at the script's place (after rule 13, before 19
// and 20: quirk (official) rule14sub, whose rule 20 may bring back a column of the table
// rule 14 removed) or at ours (last, after rule 19 made joined columns one).
func rule14First(rc *ruleCtx, q *equery) {
	if rc.quirks.has(quirkRule14Sub) {
		rule14UnneededJoin(rc, q)
	}
}

func rule14Last(rc *ruleCtx, q *equery) {
	if !rc.quirks.has(quirkRule14Sub) {
		rule14UnneededJoin(rc, q)
	}
}

// normalize applies every rule until a fixpoint (bounded: rules only shrink or reorder
// the tree, but a bound keeps a rule bug from looping). It stops with budgetErr between
// rules once rc.ctx is done. It returns q's key once normalised (the fixpoint test has
// printed it already).
func (rc *ruleCtx) normalize(q *equery) (string, error) {
	canon(q, rc.fire)
	// The keys of two rounds are compared in reused buffers; only the last is copied.
	prev, cur := getKeyBuf(), getKeyBuf()
	defer func() { putKeyBuf(prev); putKeyBuf(cur) }()
	q.write(prev)
	for range 8 {
		learnt := rc.facts.size()
		var err error
		walkQuery(q, func(sub *equery) {
			for _, r := range queryRules {
				if err != nil {
					return
				}
				if err = budgetErr(rc.ctx); err == nil {
					r(rc, sub)
				}
			}
		})
		if err != nil {
			return "", err
		}
		canon(q, rc.fire)
		*cur = (*cur)[:0]
		q.write(cur)
		// What a round's joins taught (official mode) is used by the next round, as by
		// the script's next pass (its first pass nearly always changes the tree).
		if bytes.Equal(*cur, *prev) && rc.facts.size() == learnt {
			return string(*cur), nil
		}
		prev, cur = cur, prev
	}
	return string(*prev), nil
}
