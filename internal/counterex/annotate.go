package counterex

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/prove"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Annotator fills the test-suite fields of every judged record while the judge runs
// (it satisfies judge.Annotator, so it runs in the judge's workers, parallel across
// questions). Only EX-correct records are searched; the others get ts_ex 0.
type Annotator struct {
	s     *Searcher
	found atomic.Int64
}

// NewAnnotator returns an annotator searching with opt.
func NewAnnotator(opt Options) *Annotator { return &Annotator{s: New(opt)} }

// Found is how many counterexamples the annotator found that prove a prediction wrong.
func (a *Annotator) Found() int { return int(a.found.Load()) }

// Close releases the original databases.
func (a *Annotator) Close() error { return a.s.Close() }

// Annotate sets rec's TestSuite fields. Only a cancelled ctx is an error.
func (a *Annotator) Annotate(ctx context.Context, q *dataset.Question, dbPath string, rec *record.Record) error {
	if !rec.Judged() {
		return nil
	}
	zero, one := 0, 1
	if rec.Verdict != record.Correct {
		rec.TSEX = &zero
		return nil
	}
	rec.TSEX = &one
	if dbPath == "" || len(q.Gold) == 0 {
		rec.TSNote = "no SQLite database to build variants of"
		a.noProof(rec)
		return nil
	}
	out, err := a.search(ctx, dbPath, q, rec.PredSQL)
	if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return ctx.Err()
	}
	if err != nil {
		rec.TSNote = err.Error()
		if out == nil {
			a.noProof(rec)
			return nil
		}
	}
	rec.TSDBs = out.Tried
	if f := out.Found; f != nil {
		kind := "robustness"
		if f.Realistic() {
			kind = "realistic"
		}
		if f.Refutes() {
			a.found.Add(1)
			rec.TSEX = &zero
		}
		rec.Counterexample = &record.Counterexample{Rows: f.Rows, Script: f.Script,
			GoldResult: Table(f.Gold), PredResult: Table(f.Pred), Kind: kind, Assumes: f.Assumes, GoldSuspect: f.GoldTie}
	}
	if pr := out.Proof; pr != nil {
		rec.TSProof = string(pr.Status)
		rec.Proof = &record.Proof{Bound: pr.Result.Bound, Assumes: pr.Result.Assumes, SolverMS: pr.Result.Elapsed.Milliseconds(),
			Checked: pr.Checked, Reason: pr.Reason, BySolver: pr.BySolver}
	} else {
		a.noProof(rec)
	}
	return nil
}

// noProof marks an EX-correct record the proof could not be tried on (unless it is off).
func (a *Annotator) noProof(rec *record.Record) {
	if !a.s.opt.Proof.On {
		return
	}
	why := rec.TSNote
	if why == "" {
		why = "the search ended early"
	}
	rec.TSProof = string(prove.Unknown)
	rec.Proof = &record.Proof{Reason: "no proof attempted: " + why}
}

// search runs one search; a panic in it (a bug) leaves the record unsearched with a
// note rather than ending the run.
func (a *Annotator) search(ctx context.Context, dbPath string, q *dataset.Question, pred string) (out *Outcome, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("counterexample search failed: %v", p)
		}
	}()
	return a.s.Search(ctx, dbPath, q.Index, q.Gold, pred)
}

// maxShownRows bounds the rows of a result kept in a record.
const maxShownRows = 50

// Table is r as a record stores it for display (at most maxShownRows rows).
func Table(r *engine.Result) record.ResultTable {
	t := record.ResultTable{Columns: r.Columns, Rows: [][]any{}}
	for i := range r.NumRows() {
		row := r.Row(i)
		if i == maxShownRows {
			break
		}
		out := make([]any, len(row))
		for j, v := range row {
			if b, ok := v.([]byte); ok {
				v = "X'" + hex.EncodeToString(b) + "'"
			}
			out[j] = v
		}
		t.Rows = append(t.Rows, out)
	}
	return t
}

// ParseBudget reads --test-suite-budget: a count of databases ("200"), a duration
// ("2s"), or both separated by a comma ("200,2s"). Zero disables that bound; at least
// one bound must be set.
func ParseBudget(s string) (Budget, error) {
	var b Budget
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if n, err := strconv.Atoi(part); err == nil && n >= 0 {
			b.DBs = n
			continue
		}
		d, err := time.ParseDuration(part)
		if err != nil || d < 0 {
			return Budget{}, fmt.Errorf("budget %q: want a count of databases, a duration, or both (200,2s)", s)
		}
		b.Time = d
	}
	if b.DBs == 0 && b.Time == 0 {
		return Budget{}, fmt.Errorf("budget %q: set a count of databases or a duration", s)
	}
	return b, nil
}

// String is the budget as ParseBudget reads it.
func (b Budget) String() string {
	var parts []string
	if b.DBs > 0 {
		parts = append(parts, strconv.Itoa(b.DBs))
	}
	if b.Time > 0 {
		parts = append(parts, b.Time.String())
	}
	return strings.Join(parts, ",")
}
