package match

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// ETMAnnotator fills a record's etm and etm_rules fields while the judge runs; it
// satisfies judge.Annotator and is safe for concurrent use. Each database is opened
// once and each gold query normalised once, shared by all systems of a run. With several
// accepted gold queries, matching any one is a match. Verbose keeps etm_rules on every
// record; otherwise they are kept only when ETM matched (the rules that made it match).
// When ctx's deadline passes before a verdict is certain, etm is left absent (not
// computed) and the record is counted in OverBudget.
//
// Mode is official (the ETM authors' script) or corrected. In corrected mode a record
// whose official verdict differs also gets etm_official and etm_mode_rule (the quirk
// that decided); that costs a second normalisation of each query.
type ETMAnnotator struct {
	Verbose bool
	Mode    ETMMode
	// Ran, when set, is the judge's SQLite engine: a text it ran without error on the
	// question's file is not prepared again (see ETMDB.prepares). Verdicts are the same
	// with or without it.
	Ran RanChecker
	// Schemas, when set, is the run's introspections, shared with schema linking (nil:
	// ETM introspects each database itself).
	Schemas *dbschema.Introspections

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

// etmGoldKey names one gold query normalised in one mode.
type etmGoldKey struct {
	goldKey
	mode ETMMode
}

// NewETMAnnotatorMode returns an annotator computing ETM in the given mode.
func NewETMAnnotatorMode(verbose bool, mode ETMMode) *ETMAnnotator {
	if mode == "" {
		mode = ETMOfficial
	}
	return &ETMAnnotator{Verbose: verbose, Mode: mode}
}

// etmOutcome is one mode's verdict over a question's accepted gold queries.
type etmOutcome struct {
	verdict *int
	rules   []string
	over    bool // a comparison ran out of time: a 0 is not certain
}

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
	e.once.Do(func() {
		introspect := dbschema.Introspect
		if a.Schemas != nil {
			introspect = a.Schemas.Introspect
		}
		e.db, e.err = openETMDB(context.WithoutCancel(ctx), dbPath, introspect)
		if e.err == nil {
			e.db.ran = a.Ran
		}
	})
	if e.err != nil {
		return ctx.Err()
	}
	mode := a.Mode
	if mode == "" {
		mode = ETMOfficial
	}
	out := a.judge(ctx, e.db, q, rec.PredSQL, mode)
	if err := budgetErr(ctx); err != nil && !errors.Is(err, ErrOverBudget) {
		return err
	}
	verdict, rules := out.verdict, out.rules
	if out.over && (verdict == nil || *verdict == 0) {
		a.overBudget.Add(1)
		verdict, rules = nil, nil
	}
	if mode == ETMCorrected && verdict != nil {
		off := a.judge(ctx, e.db, q, rec.PredSQL, ETMOfficial)
		if off.verdict != nil && *off.verdict != *verdict && !(off.over && *off.verdict == 0) {
			rec.ETMOfficial = off.verdict
			rec.ETMModeRule = a.decider(ctx, e.db, q, rec.PredSQL, *off.verdict == 1)
		}
	}
	rec.ETM = verdict
	if verdict != nil && (a.Verbose || *verdict == 1) {
		rec.ETMRules = rules
	}
	return nil
}

// judge compares pred with each accepted gold query in one mode: matching any one is a
// match.
func (a *ETMAnnotator) judge(ctx context.Context, db *ETMDB, q *dataset.Question, pred string, mode ETMMode) etmOutcome {
	var out etmOutcome
	for i, text := range q.Gold {
		key := etmGoldKey{goldKey{q.Index, i}, mode}
		gv, _ := a.golds.LoadOrStore(key, &etmGoldEntry{})
		g := gv.(*etmGoldEntry)
		g.once.Do(func() { g.n, g.err = db.NormalizeMode(ctx, text, mode) })
		if errors.Is(g.err, ErrOverBudget) {
			out.over = true
			a.golds.CompareAndDelete(key, g) // the next system tries again
			continue
		}
		if g.err != nil {
			continue
		}
		res := db.CompareTo(ctx, pred, g.n)
		if errors.Is(res.Err, ErrOverBudget) {
			out.over = true
			continue
		}
		m := b2i(res.Match)
		out.verdict, out.rules = &m, res.Rules
		if m == 1 {
			break
		}
	}
	return out
}

// decider names the quirk that gave official mode its verdict: on the first gold query
// where official mode's verdict is official (a match, or, for a 0, every gold).
func (a *ETMAnnotator) decider(ctx context.Context, db *ETMDB, q *dataset.Question, pred string, official bool) string {
	for _, text := range q.Gold {
		o, c, diff := db.CompareModes(ctx, pred, text)
		if diff != nil && o.Match == official && c.Match != official {
			return diff.Rule
		}
	}
	return "several"
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
