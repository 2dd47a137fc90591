package match

import (
	"context"
	"sync"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// ETMAnnotator fills a record's etm and etm_rules fields while the judge runs; it
// satisfies judge.Annotator and is safe for concurrent use. Each database is opened
// once and each gold query normalised once, shared by all systems of a run. With several
// accepted gold queries, matching any one is a match. Verbose keeps etm_rules on every
// record; otherwise they are kept only when ETM matched (the rules that made it match).
type ETMAnnotator struct {
	Verbose bool

	dbs   sync.Map // path -> *etmDBEntry
	golds sync.Map // goldKey -> *etmGoldEntry
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

// Annotate sets rec.ETM and rec.ETMRules. Only a cancelled ctx is an error.
func (a *ETMAnnotator) Annotate(ctx context.Context, q *dataset.Question, dbPath string, rec *record.Record) error {
	if dbPath == "" || len(q.Gold) == 0 {
		return nil
	}
	v, _ := a.dbs.LoadOrStore(dbPath, &etmDBEntry{})
	e := v.(*etmDBEntry)
	e.once.Do(func() { e.db, e.err = OpenETMDB(ctx, dbPath) })
	if e.err != nil {
		return ctx.Err()
	}
	var verdict *int
	var rules []string
	for i, text := range q.Gold {
		gv, _ := a.golds.LoadOrStore(goldKey{q.Index, i}, &etmGoldEntry{})
		g := gv.(*etmGoldEntry)
		g.once.Do(func() { g.n, g.err = e.db.Normalize(ctx, text) })
		if g.err != nil {
			continue
		}
		res := e.db.CompareTo(ctx, rec.PredSQL, g.n)
		m := 0
		if res.Match {
			m = 1
		}
		verdict, rules = &m, res.Rules
		if m == 1 {
			break
		}
	}
	if err := ctx.Err(); err != nil {
		return err
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
