package benchrun

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/linking"
	"github.com/nl2sqlbench/nl2sqlbench/internal/match"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// This file wires the metrics that add fields to every judged record, computed in the
// judge's workers: each is one line in annotators. Their summary sections are lines in
// Summarize (summary.go).

// annotators returns what adds fields to every judged record of this run. The
// structural matches (ESM, ETM) share one budget per record, the run's timeout: what
// they cannot finish in it stays absent from the record ("not computed") and is counted
// in overBudget's warning, so a pathological query (an IN list of 180,000 values) costs
// at most --timeout more than its execution.
func annotators(ctx context.Context, cfg Config, set Settings, ds *dataset.Dataset) ([]judge.Annotator, *structural, error) {
	need := set.Needs // what the chosen metrics need (settings.go): EX alone needs none
	st := &structural{budget: cfg.Timeout}
	schemas := &dbschema.Introspections{} // each database introspected once, for ETM and linking
	if need.Has(metrics.NeedESM) {
		st.esm = match.NewAnnotator(ds.Tables, match.Options{Values: cfg.ESMValues, Distinct: cfg.ESMDistinct})
	}
	if need.Has(metrics.NeedETM) {
		st.etm = match.NewETMAnnotatorMode(cfg.ETMVerbose, set.ETMMode)
		st.etm.Schemas = schemas
	}
	var as []judge.Annotator
	if st.esm != nil || st.etm != nil {
		as = append(as, st)
	}
	if need.Has(metrics.NeedLinking) {
		as = append(as, moduleAnnotator(cfg, ds, schemas))
	}
	if cfg.TestSuite {
		as = append(as, testSuiteAnnotator(cfg, set, ds.Tables), newGoldSuspectLinker(cfg))
	}
	// Last: the judge is shown what the annotators above found (ETM, a counterexample).
	if cfg.LLMJudge != nil && need.Has(metrics.NeedLLMJudge) {
		as = append(as, cfg.LLMJudge)
	}
	return as, st, nil
}

// moduleAnnotator fills every record's schema-linking and module fields.
func moduleAnnotator(cfg Config, ds *dataset.Dataset, schemas *dbschema.Introspections) *linking.Annotator {
	return linking.New(ds, linking.Options{PassK: cfg.passK(), Schemas: schemas})
}

// structural runs ESM then ETM on one record under one deadline (none when budget is 0).
type structural struct {
	budget time.Duration
	esm    *match.Annotator
	etm    *match.ETMAnnotator
}

var _ judge.Annotator = (*structural)(nil)

func (s *structural) Annotate(ctx context.Context, q *dataset.Question, dbPath string, rec *record.Record) error {
	if s.budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.budget)
		defer cancel()
	}
	if s.esm != nil {
		if err := s.esm.Annotate(ctx, q, dbPath, rec); err != nil {
			return err
		}
	}
	if s.etm == nil {
		return nil
	}
	return s.etm.Annotate(ctx, q, dbPath, rec)
}

// knowRuns hands ETM the run's SQLite engine, so that a text the judge already ran
// without error on a question's file is not prepared again. Called before the judge runs.
func (s *structural) knowRuns(r match.RanChecker) {
	if s.etm != nil {
		s.etm.Ran = r
	}
}

func (s *structural) Close() error {
	if s.etm == nil {
		return nil
	}
	return s.etm.Close()
}

// overBudget is the warning for the records whose structural matches ran out of time
// ("" when none did).
func (s *structural) overBudget() string {
	var parts []string
	for _, m := range []struct {
		id string
		n  int
	}{{"esm", s.esmOverBudget()}, {"etm", s.etmOverBudget()}} {
		if m.n > 0 {
			parts = append(parts, fmt.Sprintf("%s of %d record%s", m.id, m.n, plural(m.n)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("structural match not computed within its budget of %s (--timeout) for %s: left absent, so they lower the metric's coverage (n/a under 90%%)",
		s.budget, strings.Join(parts, " and "))
}

// esmOverBudget and etmOverBudget count the records over budget (0 for a match the
// run does not compute).
func (s *structural) esmOverBudget() int {
	if s.esm == nil {
		return 0
	}
	return s.esm.OverBudget()
}

func (s *structural) etmOverBudget() int {
	if s.etm == nil {
		return 0
	}
	return s.etm.OverBudget()
}

// closeAnnotators releases what annotators hold open (ETM's read-only connections).
func closeAnnotators(as []judge.Annotator) {
	for _, a := range as {
		if c, ok := a.(io.Closer); ok {
			_ = c.Close()
		}
	}
}
