package match

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/memo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/spidersql"
)

// Annotator fills a record's structural fields (record.Structural) while the judge runs;
// it satisfies judge.Annotator. It is safe for concurrent use.
//
// ESM is computed when the question's database file exists (its schema is what the
// official script parses against) and a gold query parses; with several accepted gold
// queries, matching any one is a match. Schemas, the foreign-key maps and each rebuilt
// gold query are computed once and shared by all systems.
//
// The comparison runs in another goroutine (a reused worker, esm_workers.go), so that a
// deadline stops the waiting at once: when ctx's deadline passes first, esm is left absent
// (not computed) and the record is counted in OverBudget; the worker's parse, which takes
// the same ctx, stops soon after.
type Annotator struct {
	opt        Options
	overBudget atomic.Int64
	tables     string // tables.json; "" = no foreign-key map (ESM then never merges join columns)

	fkOnce sync.Once
	fks    map[string]FKMap
	fkErr  error

	schemas memo.Map[string, *spidersql.Schema] // by db path
	golds   memo.Map[goldKey, *Gold]

	jobs    chan esmJob   // unbuffered: a send succeeds only when a worker is idle (esm_workers.go)
	workers chan struct{} // a token per running worker, at most maxESMWorkers
}

type goldKey struct {
	question, gold int
}

// NewAnnotator returns an annotator computing ESM with opt. tables is the dataset's
// tables.json, read on first use for the foreign-key map ("" for none).
func NewAnnotator(tables string, opt Options) *Annotator {
	return &Annotator{opt: opt, tables: tables, jobs: make(chan esmJob), workers: make(chan struct{}, maxESMWorkers())}
}

// Options returns the ESM variant this annotator computes.
func (a *Annotator) Options() Options { return a.opt }

// OverBudget is how many records were left without esm because ctx's deadline passed.
func (a *Annotator) OverBudget() int { return int(a.overBudget.Load()) }

// Annotate sets rec.ESM. Only a malformed tables.json or a cancelled ctx is an error;
// a question ESM cannot be computed for (or not before ctx's deadline) keeps ESM unset.
func (a *Annotator) Annotate(ctx context.Context, q *dataset.Question, dbPath string, rec *record.Record) error {
	if dbPath == "" || len(q.Gold) == 0 {
		return nil
	}
	fk, err := a.fkMap(q.DBID)
	if err != nil {
		return fmt.Errorf("esm: %w", err)
	}
	s, err := a.schema(context.WithoutCancel(ctx), dbPath) // once per database, not under this record's budget
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return nil // an unreadable database: the judge has already reported it
	}
	done := make(chan esmResult, 1)
	if a.startESM(esmJob{ctx: ctx, q: q, pred: rec.PredSQL, s: s, fk: fk, done: done}) {
		select {
		case res := <-done:
			rec.ESM, rec.ESMPartial = res.verdict, res.partial
			setClauses(rec, res)
			return nil
		case <-ctx.Done():
			select {
			case res := <-done: // finished as the deadline passed
				rec.ESM, rec.ESMPartial = res.verdict, res.partial
				setClauses(rec, res)
				return nil
			default:
			}
		}
	}
	if err := budgetErr(ctx); !errors.Is(err, ErrOverBudget) {
		return err
	}
	rec.ESM, rec.ESMPartial = nil, nil
	a.overBudget.Add(1)
	return nil
}

// setClauses puts the clauses that differ on an incorrect record's result_diff.
func setClauses(rec *record.Record, res esmResult) {
	if rec.Diff != nil && rec.Verdict == record.Incorrect && res.verdict != nil {
		rec.Diff.Clauses = res.clauses
	}
}

// esmResult is one record's ESM verdict and its partial-match breakdown.
type esmResult struct {
	verdict *int
	partial map[string]record.PartialScore
	clauses []string // the clauses that differ from that gold's (clauseDiff)
}

// esm is the verdict of predSQL against any of q's gold queries (nil: not computed), with
// the partial-match breakdown against the gold that matched, else the first gold that
// parsed. It gives up between parses once ctx is done (its caller has then stopped
// waiting).
func (a *Annotator) esm(ctx context.Context, q *dataset.Question, predSQL string, s *spidersql.Schema, fk FKMap) esmResult {
	pred := PredText(predSQL)
	var res esmResult
	for i, text := range q.Gold {
		g, err := a.gold(goldKey{q.Index, i}, text, s, fk)
		if ctx.Err() != nil {
			return esmResult{}
		}
		if err != nil {
			continue
		}
		ok, part, clauses, err := g.matchDetail(ctx, pred, s, fk, a.opt)
		if err != nil {
			return esmResult{} // ctx ended the parse: its caller has stopped waiting
		}
		if res.verdict == nil || ok {
			v := boolInt(ok)
			res = esmResult{verdict: &v, partial: part, clauses: clauses}
		}
		if ok {
			break
		}
	}
	return res
}

func (a *Annotator) fkMap(db string) (FKMap, error) {
	a.fkOnce.Do(func() {
		if a.tables != "" {
			a.fks, a.fkErr = ReadFKMaps(a.tables)
		}
	})
	return a.fks[db], a.fkErr
}

func (a *Annotator) schema(ctx context.Context, path string) (*spidersql.Schema, error) {
	return a.schemas.Get(path, func() (*spidersql.Schema, error) { return SchemaFromSQLite(ctx, path) })
}

func (a *Annotator) gold(k goldKey, sql string, s *spidersql.Schema, fk FKMap) (*Gold, error) {
	return a.golds.Get(k, func() (*Gold, error) { return PrepareGold(sql, s, fk, a.opt) })
}
