package livesql

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// Corrected mode (--livesql-mode corrected) fixes what is wrong in the official default
// test case, each fix a Correction named in the records and counted in the summary
// (docs/tasks.md lists them):
//
//   - CorrEmptyResult: ex_base fails any empty result, even when the gold's is empty
//     too; corrected, two empty results match (one empty and one not still differ).
//   - CorrDistinct: remove_distinct deletes every DISTINCT token, which breaks
//     DISTINCT ON (...) (a syntax error or another query), changes COUNT( DISTINCT x ),
//     and under conditions.order lets a prediction without the DISTINCT the question
//     asks for pass; corrected, DISTINCT is kept in both queries.
//   - CorrDecimal: conditions.decimal is never read (results are always rounded to 2
//     places); corrected, results are rounded to conditions.decimal places when the task
//     gives it (ROUND is still removed from both queries, so a prediction is not failed
//     for rounding itself, and both results are rounded alike).
//   - CorrCleanUp: the evaluator reads clean_up_sql but the task files hold
//     clean_up_sqls, so no clean-up ever runs; corrected, clean_up_sqls run after the
//     turn on its copy (recorded, step "clean_up"). The copy is dropped after the turn in
//     both modes, so this changes no verdict: a clean-up that fails is reported.
//
// A Query turn in corrected mode is judged both ways on the same copy (the SELECTs of
// the official default test case, then the corrected ones): the verdict is the
// corrected one, Verdict.OfficialPass the official one, and Verdict.Corrections the
// corrections that applied to the turn.
type Correction string

// The corrections.
const (
	CorrEmptyResult Correction = "empty_result"
	CorrDistinct    Correction = "distinct_kept"
	CorrDecimal     Correction = "decimal"
	CorrCleanUp     Correction = "clean_up_sqls"
)

// Conditions are a turn's conditions as ex_base reads them: Order always, Decimal
// (places; -1: not given) only in corrected mode.
type Conditions struct {
	Order   bool
	Decimal int
}

// RunQueryCorrected judges a Query turn in corrected mode on db (a fresh copy): as
// RunQuery up to the prediction, then the official default test case (OfficialPass),
// then the corrected one, which gives the verdict; cleanUp (clean_up_sqls) runs last.
func RunQueryCorrected(ctx context.Context, db Execer, preprocess, pred, gold, cleanUp []string, cond Conditions, timeout time.Duration) (Verdict, error) {
	if timeout <= 0 {
		timeout = OfficialTimeout
	}
	lim := taskdb.ExecLimits{Timeout: timeout, KeepRows: OfficialRows}
	rec := &recorder{db: db}
	if _, _, err := executeQueries(ctx, rec.as("preprocess"), preprocess, lim); err != nil {
		return Verdict{}, err
	}
	if _, fail, err := executeQueries(ctx, rec.as("prediction"), pred, lim); err != nil {
		return Verdict{}, err
	} else if fail != nil {
		kind := ExecutionError
		if errors.Is(fail, taskdb.ErrTimeout) {
			kind = Timeout
		}
		v := Verdict{Failure: kind, Detail: fail.Error(), Ran: rec.ran}
		return v, runCleanUp(ctx, rec, cleanUp, lim, &v)
	}
	offOK, _, offPair, err := exBaseRows(ctx, rec, clean(pred), clean(gold), cond.Order, lim)
	if err != nil {
		return Verdict{}, err
	}
	cpred, cgold := cleanCorrected(pred), cleanCorrected(gold)
	var corr []Correction
	if !slices.Equal(cpred, clean(pred)) || !slices.Equal(cgold, clean(gold)) {
		corr = append(corr, CorrDistinct)
	}
	places := 2
	if cond.Decimal >= 0 && cond.Decimal != 2 {
		places = cond.Decimal
		corr = append(corr, CorrDecimal)
	}
	ok, detail, empty, corrPair, err := exBaseCorrected(ctx, rec, cpred, cgold, cond.Order, places, lim)
	if err != nil {
		return Verdict{}, err
	}
	if empty {
		corr = append(corr, CorrEmptyResult)
	}
	v := Verdict{Pass: ok, Ran: rec.ran, OfficialPass: &offOK, Corrections: corr}
	if ok != offOK {
		v.ChangedBy = changedBy(corr, offPair, corrPair, cond, offOK, ok)
	}
	if !ok {
		v.Failure, v.Detail = Assertion, detail
	}
	if err := runCleanUp(ctx, rec, cleanUp, lim, &v); err != nil {
		return Verdict{}, err
	}
	v.Ran = rec.ran
	return v, nil
}

// runCleanUp runs clean_up_sqls (CorrCleanUp): its failure is noted, never a verdict.
func runCleanUp(ctx context.Context, rec *recorder, cleanUp []string, lim taskdb.ExecLimits, v *Verdict) error {
	if len(cleanUp) == 0 {
		return nil
	}
	_, fail, err := executeQueries(ctx, rec.as("clean_up"), cleanUp, lim)
	if err != nil {
		return err
	}
	v.Corrections = append(v.Corrections, CorrCleanUp)
	if fail != nil {
		v.CleanUpError = fail.Error()
	}
	v.Ran = rec.ran
	return nil
}

// cleanCorrected is the corrected cleaning: comments and ROUND removed, DISTINCT kept.
func cleanCorrected(sqls []string) []string {
	out := make([]string, len(sqls))
	for i, s := range sqls {
		out[i] = RemoveRound(RemoveComments(s))
	}
	return out
}

// exBaseCorrected is exBase with the corrections: results rounded to places, two empty
// results equal (empty reports that both were).
func exBaseCorrected(ctx context.Context, db *recorder, pred, gold []string, order bool, places int, lim taskdb.ExecLimits) (ok bool, detail string, empty bool, pair *resultPair, err error) {
	if len(pred) == 0 || len(gold) == 0 {
		return false, "no SQL", false, nil, nil
	}
	pres, pfail, err := executeQueries(ctx, db.as("corrected test"), pred, lim)
	if err != nil {
		return false, "", false, nil, err
	}
	gres, gfail, err := executeQueries(ctx, db.as("corrected gold"), gold, lim)
	if err != nil {
		return false, "", false, nil, err
	}
	switch {
	case pfail != nil:
		return false, "prediction failed: " + pfail.Error(), false, nil, nil
	case gfail != nil:
		return false, "gold failed: " + gfail.Error(), false, nil, nil
	case pres == nil || !pres.HasRows:
		return false, "prediction returned no result set", false, nil, nil
	case !gres.HasRows:
		return false, "gold returned no result set", false, nil, nil
	}
	p, err := FromPostgres(pres)
	if err != nil {
		return false, "prediction: " + err.Error(), false, nil, nil
	}
	g, err := FromPostgres(gres)
	if err != nil {
		return false, "gold: " + err.Error(), false, nil, nil
	}
	pair = &resultPair{p, g}
	ok, why, empty, err := correctedCompare(pair, order, places, true)
	if err != nil {
		return false, err.Error(), false, pair, nil
	}
	return ok, why, empty, pair, nil
}

// correctedCompare compares a pair of results rounding to places, two empty results
// equal when emptyEqual (corrected) and failing otherwise (official: any empty result
// fails); empty reports that both were empty.
func correctedCompare(pair *resultPair, order bool, places int, emptyEqual bool) (ok bool, why string, empty bool, err error) {
	p, g := pair.pred, pair.gold
	if len(p) == 0 && len(g) == 0 {
		if emptyEqual {
			return true, "", true, nil
		}
		return false, "empty result (prediction 0 rows, gold 0)", true, nil
	}
	if len(p) == 0 || len(g) == 0 {
		return false, fmt.Sprintf("prediction %d rows, gold %d", len(p), len(g)), false, nil
	}
	ok, why, err = compare(p, g, order, places)
	return ok, why, false, err
}

// changedBy says which corrections made a turn's verdict differ from the official one:
// each correction that applied is tried alone on the official comparison (distinct_kept:
// the results of the SQL with its DISTINCT kept; decimal: rounding to conditions.decimal;
// empty_result: two empty results equal), without running anything again; those that
// alone give the corrected verdict made the difference. When none does alone, the change
// needed them together and every one that applied is named. clean_up_sqls runs after the
// comparison and is never named.
func changedBy(applied []Correction, official, corrected *resultPair, cond Conditions, officialOK, correctedOK bool) []Correction {
	var cands, out []Correction
	for _, c := range applied {
		if c != CorrCleanUp {
			cands = append(cands, c)
		}
	}
	for _, c := range cands {
		pair, places := official, 2
		switch c {
		case CorrDistinct:
			pair = corrected
		case CorrDecimal:
			places = cond.Decimal
		}
		alone := false
		if pair != nil {
			ok, _, _, err := correctedCompare(pair, cond.Order, places, c == CorrEmptyResult)
			alone = ok && err == nil
		}
		if alone == correctedOK && alone != officialOK {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return cands
	}
	return out
}
