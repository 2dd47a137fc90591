package match

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// ETMAnnotator fills a record's etm and etm_rules fields while the judge runs; it
// satisfies judge.Annotator and is safe for concurrent use. Each database is opened
// once and each gold query normalised once, shared by all systems of a run. With several
// accepted gold queries, matching any one is a match. Verbose keeps etm_rules on every
// record; otherwise they are kept only when ETM matched (the rules that made it match).
// When ctx's deadline passes before a verdict is certain, etm is left absent (not
// computed) and the record is counted in OverBudget.
type ETMAnnotator struct {
	Verbose bool

	overBudget atomic.Int64
	dbs        sync.Map // path -> *etmDBEntry
	golds      sync.Map // goldKey -> *etmGoldEntry
}

type etmDBEntry struct {
	once sync.Once
	db   *ETMDB
	err  error
}

type etmGoldEntry struct {
	once sync.Once
	n    *Normalized
	err  error
}

// NewETMAnnotator returns an annotator computing ETM.
func NewETMAnnotator(verbose bool) *ETMAnnotator { return &ETMAnnotator{Verbose: verbose} }

// OverBudget is how many records were left without etm because ctx's deadline passed.
func (a *ETMAnnotator) OverBudget() int { return int(a.overBudget.Load()) }

// Annotate sets rec.ETM and rec.ETMRules. Only a cancelled ctx is an error; a passed
// deadline leaves them unset.
func (a *ETMAnnotator) Annotate(ctx context.Context, q *dataset.Question, dbPath string, rec *record.Record) error {
	if dbPath == "" || len(q.Gold) == 0 {
		return nil
	}
	v, _ := a.dbs.LoadOrStore(dbPath, &etmDBEntry{})
	e := v.(*etmDBEntry)
	// Opened once for every question: not under this record's budget.
	e.once.Do(func() { e.db, e.err = OpenETMDB(context.WithoutCancel(ctx), dbPath) })
	if e.err != nil {
		return ctx.Err()
	}
	var verdict *int
	var rules []string
	over := false // a comparison ran out of time: a 0 is not certain
	for i, text := range q.Gold {
		gv, _ := a.golds.LoadOrStore(goldKey{q.Index, i}, &etmGoldEntry{})
		g := gv.(*etmGoldEntry)
		g.once.Do(func() { g.n, g.err = e.db.Normalize(ctx, text) })
		if errors.Is(g.err, ErrOverBudget) {
			over = true
			a.golds.CompareAndDelete(goldKey{q.Index, i}, g) // the next system tries again
			continue
		}
		if g.err != nil {
			continue
		}
		res := e.db.CompareTo(ctx, rec.PredSQL, g.n)
		if errors.Is(res.Err, ErrOverBudget) {
			over = true
			continue
		}
		m := 0
		if res.Match {
			m = 1
		}
		verdict, rules = &m, res.Rules
		if m == 1 {
			break
		}
	}
	if err := budgetErr(ctx); err != nil && !errors.Is(err, ErrOverBudget) {
		return err
	}
	if over && (verdict == nil || *verdict == 0) {
		a.overBudget.Add(1)
		verdict, rules = nil, nil
	}
	rec.ETM = verdict
	if verdict != nil && (a.Verbose || *verdict == 1) {
		rec.ETMRules = rules
	}
	return nil
}

// Close closes every database the annotator opened.
func (a *ETMAnnotator) Close() error {
	a.dbs.Range(func(_, v any) bool {
		if e := v.(*etmDBEntry); e.db != nil {
			e.db.Close()
		}
		return true
	})
	return nil
}
