package benchrun

import (
	"context"
	"fmt"

	"github.com/nl2sqlbench/nl2sqlbench/internal/audit"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/memo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// This file links a gold-suspect counterexample (eval --test-suite: the prediction and
// the gold differ only by a tie under the gold's LIMIT) to the gold audit: the finding
// `audit` would write for that gold on the original data, so a reader sees whether the
// real rows already tie (the gold's answer is arbitrary today) or only the synthetic ones.

// orderChecks are the audit checks a gold-suspect difference can match, most specific
// first: a tie under the LIMIT is what the search reports.
var orderChecks = []string{"limit_tie", "nulls_first", "text_number", "reverse_scan"}

// goldSuspectLinker annotates records whose counterexample is gold-suspect; it runs
// after the test-suite annotator. The gold's audit runs once per question, whatever
// the number of systems.
type goldSuspectLinker struct {
	db  *engine.SQLite
	lim engine.Limits
	by  memo.Map[int, *record.AuditRef]
}

var _ judge.Annotator = (*goldSuspectLinker)(nil)

func newGoldSuspectLinker(cfg Config) *goldSuspectLinker {
	return &goldSuspectLinker{db: engine.NewSQLite(), lim: engine.Limits{Timeout: cfg.Timeout, MaxRows: cfg.MaxRows}}
}

func (g *goldSuspectLinker) Annotate(ctx context.Context, q *dataset.Question, dbPath string, rec *record.Record) error {
	c := rec.Counterexample
	if c == nil || c.GoldSuspect == "" {
		return nil
	}
	ref, err := g.by.Get(q.Index, func() (*record.AuditRef, error) { return auditRef(ctx, g.db, dbPath, q, g.lim) })
	if err != nil {
		return err
	}
	c.GoldSuspectAudit = ref
	return nil
}

func (g *goldSuspectLinker) Close() error { return g.db.Close() }

// auditRef is the gold's order finding on the original data, or Check "none". A query
// the audit cannot finish (a timeout) leaves Check "not audited" with the reason: the
// link is evidence for a reader, never a verdict. Cancellation stops the run.
func auditRef(ctx context.Context, db *engine.SQLite, dbPath string, q *dataset.Question, lim engine.Limits) (*record.AuditRef, error) {
	fs, err := audit.Gold(ctx, db, dbPath, q, lim)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return &record.AuditRef{Check: "not audited", Evidence: err.Error()}, nil
	}
	for _, check := range orderChecks {
		for _, f := range fs {
			if f.Check == check && f.Target == audit.TargetGold {
				return &record.AuditRef{Check: f.Check, Confidence: f.Confidence, Evidence: f.Evidence}, nil
			}
		}
	}
	return &record.AuditRef{Check: "none", Evidence: fmt.Sprintf("the audit finds no order dependence of question %d's gold on the original data: the tie exists only on the counterexample database", q.Index)}, nil
}
