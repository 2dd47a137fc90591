package counterex

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
)

// queryLimits bound one query on a variant: a variant has a few dozen rows, so a query
// that takes longer or returns more is a cross product not worth waiting for.
var queryLimits = engine.Limits{Timeout: time.Second, MaxRows: 5000, MaxBytes: 4 << 20}

// sandbox is one scratch database holding a spec's empty tables; variants are loaded
// in a transaction and rolled back.
type sandbox struct {
	c     *sqlite3.SQLiteConn
	s     *spec
	stmts []*sqlite3.SQLiteStmt
}

// withSandbox creates the spec's tables in a fresh scratch database and calls fn with it.
func withSandbox(ctx context.Context, s *spec, fn func(*sandbox) error) error {
	db, err := engine.OpenSQLiteMemory()
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("open scratch database: %w", err)
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		c, ok := dc.(*sqlite3.SQLiteConn)
		if !ok {
			return fmt.Errorf("unexpected driver connection %T", dc)
		}
		sb := &sandbox{c: c, s: s}
		for _, ts := range s.tables {
			if _, err := c.Exec(ts.ddl, nil); err != nil {
				return fmt.Errorf("%w: create %s: %v", ErrUnsupported, ts.t.Name, err)
			}
		}
		for _, ts := range s.tables {
			st, err := c.Prepare(ts.insert)
			if err != nil {
				return fmt.Errorf("%w: prepare insert into %s: %v", ErrUnsupported, ts.t.Name, err)
			}
			sb.stmts = append(sb.stmts, st.(*sqlite3.SQLiteStmt))
		}
		defer func() {
			for _, st := range sb.stmts {
				st.Close()
			}
		}()
		return fn(sb)
	})
}

// load inserts in (parents first; each table's rows backwards when reverse) inside a
// transaction the caller ends with rollback, and returns the rows SQLite accepted: a row
// breaking a key, NOT NULL or a foreign key is left out.
func (sb *sandbox) load(in instance, reverse bool) (instance, error) {
	if _, err := sb.c.Exec("BEGIN", nil); err != nil {
		return nil, err
	}
	got := make(instance, len(in))
	args := []driver.Value{}
	for ti, rows := range in {
		order := make([]int, len(rows))
		for i := range order {
			order[i] = i
		}
		if reverse {
			slices.Reverse(order)
		}
		for _, ri := range order {
			args = args[:0]
			for _, v := range rows[ri] {
				args = append(args, v)
			}
			if _, err := sb.stmts[ti].Exec(args); err == nil {
				got[ti] = append(got[ti], rows[ri])
			}
		}
		if reverse {
			slices.Reverse(got[ti])
		}
	}
	return got, nil
}

func (sb *sandbox) rollback() { _, _ = sb.c.Exec("ROLLBACK", nil) }

// pair is a gold query (or several accepted ones) and a prediction under one semantics:
// the texts as executed and the comparison deciding the verdict.
type pair struct {
	golds []string
	pred  string
	order []bool // Spider: order matters for gold i
	sem   judge.Semantics
	mode  judge.SpiderMode // Spider: official (the rewrite) or corrected
}

func newPair(sem judge.Semantics, mode judge.SpiderMode, golds []string, pred string) *pair {
	p := &pair{sem: sem, pred: pred, mode: mode}
	for _, g := range golds {
		if sem == judge.Spider {
			if mode == judge.SpiderCorrected { // the run judged without the official rewrite's corners
				g = judge.SpiderCorrectGold(g)
			} else {
				g = judge.SpiderRewriteGold(g)
			}
			p.order = append(p.order, judge.SpiderOrderMatters(g))
		}
		p.golds = append(p.golds, g)
	}
	if sem == judge.Spider {
		if mode == judge.SpiderCorrected {
			p.pred = judge.SpiderCorrectPred(pred, true) // an EX-correct prediction ran
		} else {
			p.pred = judge.SpiderRewritePred(pred)
		}
	}
	return p
}

// equal is the run's comparison of gold i's result with another result.
func (p *pair) equal(i int, g, o *engine.Result) bool {
	if p.sem == judge.Spider {
		return judge.SpiderEqual(g, o, p.order[i])
	}
	return judge.BirdEqual(o, g)
}

// outcome is both sides' results on one loaded variant.
type outcome struct {
	golds []*engine.Result
	pred  *engine.Result
}

var errQuery = errors.New("query failed on the variant")

// run executes every gold and the prediction on the loaded variant; any failure (an
// error, a timeout, too many rows) makes the variant no evidence.
func (p *pair) run(ctx context.Context, sb *sandbox) (*outcome, error) {
	o := &outcome{}
	for _, g := range p.golds {
		r, err := engine.QueryConn(ctx, sb.c, g, queryLimits)
		if err != nil {
			return nil, errors.Join(errQuery, err)
		}
		o.golds = append(o.golds, r)
	}
	r, err := engine.QueryConn(ctx, sb.c, p.pred, queryLimits)
	if err != nil {
		return nil, errors.Join(errQuery, err)
	}
	o.pred = r
	return o, nil
}

// differs reports whether the prediction matches no gold on o.
func (p *pair) differs(o *outcome) bool {
	for i, g := range o.golds {
		if p.equal(i, g, o.pred) {
			return false
		}
	}
	return true
}

// same reports whether two outcomes of the same queries agree side by side.
func (p *pair) same(a, b *outcome) bool {
	for i := range a.golds {
		if !p.equal(i, a.golds[i], b.golds[i]) || !p.equal(i, a.pred, b.pred) {
			return false
		}
	}
	return true
}

// check loads in and reports whether it tells the pair apart, robustly: both queries
// run, they differ, and they give the same results when the rows are inserted in the
// reverse order (SQLite may otherwise pick any of several tied rows for a LIMIT). It
// returns the rows SQLite accepted and, when the difference rests on a tie under a
// gold's LIMIT (ties.go), that tie.
func (p *pair) check(ctx context.Context, sb *sandbox, in instance) (ok bool, got instance, goldTie string) {
	got, err := sb.load(in, false)
	if err != nil {
		return false, nil, ""
	}
	fwd, err := p.run(ctx, sb)
	if err != nil || !p.differs(fwd) {
		sb.rollback()
		return false, got, ""
	}
	reject, goldTie := p.tieOnly(ctx, sb, fwd)
	sb.rollback()
	if reject {
		return false, got, ""
	}
	if again, err := sb.load(got, true); err != nil || again.rows() != got.rows() {
		sb.rollback()
		return false, got, ""
	}
	rev, err := p.run(ctx, sb)
	sb.rollback()
	if err != nil || !p.differs(rev) || goldTie == "" && !p.same(fwd, rev) {
		return false, got, ""
	}
	return true, got, goldTie
}
