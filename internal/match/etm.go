package match

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlast"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
	"github.com/sqlc-dev/meyer/ast"
)

// ETM (Enhanced Tree Matching, Table 5 of the ETM paper): both queries are parsed,
// lowered to a normal form in which the preprocessing rules P0-P8 hold, rewritten by the
// equivalence rules 1-26 until nothing changes (each rule only under the assumptions it
// states, checked against the database), and compared. Values, LIMIT counts, DISTINCT,
// join types and join conditions all count. A query SQLite cannot prepare matches
// nothing.

// Sentinel errors of ETM.
var (
	// ErrETMPrepare: SQLite cannot prepare the query on its database.
	ErrETMPrepare = errors.New("etm: query does not prepare")
	// ErrETMUnsupported: the query uses syntax the ETM normal form does not model.
	ErrETMUnsupported = errUnsupported
	// ErrOverBudget: the structural comparison did not finish before its context's
	// deadline (the run gives each record a budget equal to --timeout). The metric is
	// then not computed, never a 0.
	ErrOverBudget = errors.New("structural match: over budget")
)

// budgetErr is ErrOverBudget once ctx's deadline has passed, ctx's own error once it was
// cancelled, nil while it runs.
func budgetErr(ctx context.Context) error {
	switch err := ctx.Err(); {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%w: %w", ErrOverBudget, err)
	default:
		return err
	}
}

// ETMDB holds what ETM may assume about one database: its schema (primary keys,
// foreign keys, unique indexes, NOT NULL, column lists) and which tables are non-empty,
// plus a read-only connection to prepare queries on. Safe for concurrent use.
type ETMDB struct {
	path   string
	schema *dbschema.Schema
	db     *sql.DB

	mu       sync.Mutex
	nonEmpty map[string]bool

	prepared sync.Map   // query text -> struct{}: texts SQLite prepared on this database
	ran      RanChecker // texts the judge's engine already ran on this file; nil: none known
}

// RanChecker knows which texts an SQLite engine already ran without error on a database
// file (engine.SQLite.Ran). Such a text prepares, so ETM need not prepare it again: the
// judge executes every prediction and gold query before ETM sees it.
type RanChecker interface {
	Ran(path, query string) bool
}

// openETMDB is OpenETMDB taking the schema from introspect.
func openETMDB(ctx context.Context, path string, introspect func(context.Context, string) (*dbschema.Schema, error)) (*ETMDB, error) {
	s, err := introspect(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("etm: %w", err)
	}
	db, err := engine.OpenSQLiteReadOnly(path, 2)
	if err != nil {
		return nil, fmt.Errorf("etm: %w", err)
	}
	return &ETMDB{path: path, schema: s, db: db, nonEmpty: map[string]bool{}}, nil
}

// Close closes the connection.
func (d *ETMDB) Close() error { return d.db.Close() }

// Schema returns the introspected schema.
func (d *ETMDB) Schema() *dbschema.Schema { return d.schema }

// prepares reports whether SQLite can prepare sql on this database. It goes through
// engine.CheckPrepares, which go-sqlite3 cannot crash with SQL that prepares to no
// statement (a NUL byte, "\r\r\v\r"): such SQL does not prepare, so matches nothing.
//
// A text that prepared once prepares again (the file is opened read-only and does not
// change during a run), so successes are remembered: systems often predict the same
// text, and corrected mode normalises each prediction more than once. A failure is not
// remembered: it could be the context's deadline rather than the text. A text the judge's
// engine ran without error on this file (d.ran, byte for byte: the trimmed text ETM
// prepares only counts when the judge ran it trimmed) is known to prepare.
func (d *ETMDB) prepares(ctx context.Context, q string) bool {
	if _, ok := d.prepared.Load(q); ok {
		return true
	}
	if d.ran != nil && d.ran.Ran(d.path, q) {
		return true // the very same text, on the very same file: it prepared there
	}
	if engine.CheckPrepares(ctx, d.db, q) != nil {
		return false
	}
	d.prepared.Store(q, struct{}{})
	return true
}

// tableNonEmpty reports whether table has a row (cached; an error counts as empty, so
// the rule needing it does not fire).
func (d *ETMDB) tableNonEmpty(ctx context.Context, table string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if v, ok := d.nonEmpty[table]; ok {
		return v
	}
	t := d.schema.Table(table)
	v := false
	if t != nil {
		var one int
		err := d.db.QueryRowContext(ctx, "SELECT 1 FROM "+sqlscan.QuoteIdent(t.Name)+" LIMIT 1").Scan(&one)
		v = err == nil
		if ctx.Err() != nil {
			return false // not known: not cached, and Normalize gives no verdict
		}
	}
	d.nonEmpty[table] = v
	return v
}

// Normalized is one query in ETM's normal form.
type Normalized struct {
	Key   string   // canonical text: equal keys mean the queries match
	Rules []string // Table 5 ids of the rules that fired, sorted ("P0".."P8", "1".."26")
	Mode  ETMMode

	facts *joinFacts // official mode: what the query's joins taught (quirk joinfacts)
}

// Normalize is NormalizeMode in the official mode.
func (d *ETMDB) Normalize(ctx context.Context, text string) (*Normalized, error) {
	return d.normalize(ctx, text, ETMOfficial, nil)
}

// NormalizeMode parses sql, checks that SQLite prepares it, and returns its normal form
// in the given mode. Errors wrap sqlast.ErrParse, ErrETMPrepare or ErrETMUnsupported;
// ErrOverBudget when ctx's deadline passed first (checked between rules; each rule is
// linear in the size of the query), or ctx's error when it was cancelled.
func (d *ETMDB) NormalizeMode(ctx context.Context, text string, mode ETMMode) (*Normalized, error) {
	return d.normalize(ctx, text, mode, nil)
}

// normalize is NormalizeMode starting, in official mode, from the join facts seed (the
// gold query's, when normalising a prediction).
func (d *ETMDB) normalize(ctx context.Context, text string, mode ETMMode, seed *joinFacts) (*Normalized, error) {
	if mode == "" {
		mode = ETMOfficial
	}
	return d.normalizeQuirks(ctx, text, mode, mode.quirks(), seed)
}

// normalizeQuirks is normalize with the script's quirks in force given one by one.
func (d *ETMDB) normalizeQuirks(ctx context.Context, text string, mode ETMMode, quirks quirk, seed *joinFacts) (*Normalized, error) {
	text = strings.TrimSpace(text)
	if !d.prepares(ctx, text) {
		if err := budgetErr(ctx); err != nil {
			return nil, err
		}
		return nil, ErrETMPrepare
	}
	q, err := sqlast.ParseShared(text) // linking parses the same prediction: one tree for both
	if err != nil {
		return nil, err
	}
	st, ok := q.Syntax().(*ast.SelectStmt)
	if !ok {
		return nil, fmt.Errorf("%w: not a SELECT", ErrETMUnsupported)
	}
	fired := &firedRules{}
	l := &lowerer{s: d.schema, fired: fired, quirks: quirks}
	eq, err := l.query(st, nil)
	if err != nil {
		return nil, err
	}
	if err := budgetErr(ctx); err != nil {
		return nil, err
	}
	rc := &ruleCtx{ctx: ctx, db: d, fired: fired, quirks: quirks}
	if quirks.has(quirkJoinFacts) {
		rc.facts = newJoinFacts(seed)
	}
	// A rule that needed the database after the deadline may not have fired: the
	// normal form is then not trusted.
	key, err := rc.normalize(eq)
	if err != nil {
		return nil, err
	}
	if err := budgetErr(ctx); err != nil {
		return nil, err
	}
	return &Normalized{Key: key, Mode: mode, facts: rc.facts, Rules: fired.ids()}, nil
}

// compareRuleIDs orders P0..P8 before 1..26, numerically.
func compareRuleIDs(a, b string) int {
	num := func(s string) (bool, int) {
		p := strings.HasPrefix(s, "P")
		n := 0
		for _, c := range strings.TrimPrefix(s, "P") {
			n = n*10 + int(c-'0')
		}
		return p, n
	}
	pa, na := num(a)
	pb, nb := num(b)
	if pa != pb {
		if pa {
			return -1
		}
		return 1
	}
	return na - nb
}

// ETMVerdict is the outcome of one comparison.
type ETMVerdict struct {
	Match bool
	Rules []string // rules that fired on either query, sorted
	// Reason is set when a query could not be normalised ("pred: ...", "gold: ...").
	Reason string
	// Err is why, when it could not: Match is then false. When it wraps ErrOverBudget
	// (or the context was cancelled) there is no verdict at all.
	Err error
}

// Compare runs ETM (official mode) on a prediction against one gold query.
func (d *ETMDB) Compare(ctx context.Context, pred, gold string) ETMVerdict {
	return d.CompareMode(ctx, pred, gold, ETMOfficial)
}

// CompareMode runs ETM in the given mode on a prediction against one gold query.
func (d *ETMDB) CompareMode(ctx context.Context, pred, gold string, mode ETMMode) ETMVerdict {
	g, err := d.NormalizeMode(ctx, gold, mode)
	if err != nil {
		return ETMVerdict{Reason: "gold: " + err.Error(), Err: err}
	}
	return d.CompareTo(ctx, pred, g)
}

// CompareTo is CompareMode with the gold query already normalised (gold queries are
// shared by every system of a run), in the gold's mode. In official mode the prediction
// starts from what the gold's joins taught (quirk joinfacts: the script normalises the
// gold first, on the same schema copy).
func (d *ETMDB) CompareTo(ctx context.Context, pred string, gold *Normalized) ETMVerdict {
	p, err := d.normalize(ctx, pred, gold.Mode, gold.facts)
	if err != nil {
		return ETMVerdict{Reason: "pred: " + err.Error(), Rules: gold.Rules, Err: err}
	}
	rules := append(slices.Clone(p.Rules), gold.Rules...)
	slices.SortFunc(rules, compareRuleIDs)
	rules = slices.Compact(rules)
	return ETMVerdict{Match: p.Key == gold.Key, Rules: rules}
}
