package judge

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Run judges every system's predictions on ds. It returns when all records have been
// emitted, or with ctx's error once ctx is cancelled, or with a *FaultError when a query
// kept failing with an infrastructure fault (engine.ErrInfrastructure): that question
// and those after it get no record. Records emitted so far are complete and in order,
// so the run can resume from them.
func Run(ctx context.Context, eng engine.Engine, ds *dataset.Dataset, systems []System, opt Options, emit Emit) error {
	n := len(ds.Questions)
	for _, s := range systems {
		if len(s.Preds) != n {
			return fmt.Errorf("system %s: %d predictions for %d questions", s.Name, len(s.Preds), n)
		}
	}
	start := n
	for _, s := range systems {
		start = min(start, max(s.From, 0))
	}
	// Each database's SQLite file is looked up once, when the run starts: the default
	// locator of both sides, and what annotators read (schemas, ETM's checks) whichever
	// engine ran the queries ("" when the dataset has none). A question on a database
	// the dataset lacks is skipped; a file that goes away during the run is a fault
	// (the engine cannot open it), not a reason to skip the questions after it.
	sqlitePaths := map[string]string{}
	for _, q := range ds.Questions[start:] {
		if _, ok := sqlitePaths[q.DBID]; !ok {
			sqlitePaths[q.DBID], _ = ds.DBPath(q.DBID)
		}
	}
	lim := engine.Limits{Timeout: opt.Timeout, MaxRows: opt.MaxRows, MaxBytes: opt.MaxBytes}
	pred := side{eng: eng, locate: opt.Locate} // a nil locate: the SQLite file
	gold := pred
	if opt.Gold != nil {
		gold = side{eng: opt.Gold.Engine, locate: opt.Gold.Locate, separate: true}
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var errMu sync.Mutex
	var firstErr error // an annotator's error, which outranks the cancellation it causes
	setErr := func(err error) {
		errMu.Lock()
		defer errMu.Unlock()
		if firstErr == nil {
			firstErr = err
		}
	}
	retry := newRetryPolicy(opt)
	// A fault halts the run: records are emitted up to the first question with one.
	judgeOne := func(ctx context.Context, i int) ([]*record.Record, error) {
		q := &ds.Questions[i]
		sqlitePath := sqlitePaths[q.DBID]
		qj := &questionJob{ctx: ctx, lim: lim, sem: opt.Semantics, spiderMode: opt.SpiderMode, flex: opt.Flex, softF1: !opt.SkipSoftF1, pred: pred, gold: gold, sqlitePath: sqlitePath,
			retry: retry, index: q.Index}
		recs := qj.judge(ds, i, systems)
		if qj.fault != nil && ctx.Err() == nil {
			return nil, &FaultError{Index: q.Index, QuestionID: q.ID, Tries: qj.faultTries, Err: qj.fault}
		}
		// An annotator's error after ctx ended is the pool stopping (a fault or an
		// emit error elsewhere), not a failure of its own to report.
		if err := annotate(ctx, opt.Annotators, q, sqlitePath, recs); err != nil && ctx.Err() == nil {
			setErr(err)
			cancel()
		}
		if ctx.Err() != nil {
			return nil, nil
		}
		return recs, nil
	}
	from := make([]int, len(systems))
	for s := range systems {
		from[s] = systems[s].From
	}
	err := judgeInOrder(ctx, ordered{n: n, from: from, workers: opt.Workers, progress: opt.Progress}, judgeOne, emit)
	errMu.Lock()
	defer errMu.Unlock()
	if firstErr != nil {
		return firstErr
	}
	return err
}

// annotate runs every annotator on the records of one question.
func annotate(ctx context.Context, as []Annotator, q *dataset.Question, dbPath string, recs []*record.Record) error {
	for _, a := range as {
		for _, r := range recs {
			if err := a.Annotate(ctx, q, dbPath, r); err != nil {
				return fmt.Errorf("question %d (%s): %w", q.Index, q.ID, err)
			}
		}
	}
	return nil
}

// outcome is one executed query.
type outcome struct {
	res   *engine.Result
	err   error
	dur   time.Duration
	empty bool // the query held no statement at all
}

// emptyPredictionNote is the message of a record whose prediction holds no statement.
const emptyPredictionNote = "empty prediction: judged as an empty result, as the official scripts do"

// emptyAsNoRows reproduces a quirk of both official scripts: Python's sqlite3 executes an
// empty (or comment-only) query without complaint and fetches no rows, so an empty
// prediction is correct exactly when the gold result is empty.
func emptyAsNoRows(o outcome) outcome {
	if errors.Is(o.err, engine.ErrEmptyQuery) {
		return outcome{res: &engine.Result{}, dur: o.dur, empty: true}
	}
	return o
}

// goldResult is one accepted gold SQL, executed both ways (three under
// --spider-mode corrected).
type goldResult struct {
	bird, spider outcome
	orderMatters bool
	// changed: the official rewrite changed what the gold means (rewriteChanged).
	changed bool
	// corrected is the gold under SpiderCorrectGold, with its order test (corrected mode).
	corrected      outcome
	correctedOrder bool
	softF1         *SoftF1Gold // bird.res for Soft-F1, made by the first system that needs it
}

// side is where one kind of SQL (gold or predicted) runs.
type side struct {
	eng      engine.Engine
	locate   Locator // nil: the question's SQLite file
	separate bool    // gold on its own target, with its own cache
}

// questionJob judges one question for every system. Its caches make each distinct SQL
// text run once per question and engine, whoever produced it.
type questionJob struct {
	ctx        context.Context
	lim        engine.Limits
	sem        Semantics
	spiderMode SpiderMode
	flex       bool
	softF1     bool // compute Soft-F1 (Options.SkipSoftF1 unset)
	pred, gold side
	predDB     string
	goldDB     string
	predCache  map[string]outcome
	goldCache  map[string]outcome
	golds      []goldResult
	sqlitePath string // the question's SQLite file; "" when it has none
	index      int    // the question's index, for messages
	retry      retryPolicy
	fault      error // an infrastructure fault that outlasted its retries: no verdict
	faultTries int
}

func (qj *questionJob) execOn(eng engine.Engine, db string, cache map[string]outcome, sql string) outcome {
	if o, ok := cache[sql]; ok {
		return o
	}
	res, dur, err := qj.query(eng, db, sql)
	o := outcome{res: res, err: err, dur: dur}
	if qj.fault == nil {
		cache[sql] = o
	}
	return o
}

func (qj *questionJob) exec(sql string) outcome {
	return qj.execOn(qj.pred.eng, qj.predDB, qj.predCache, sql)
}

func (qj *questionJob) execGold(sql string) outcome {
	return qj.execOn(qj.gold.eng, qj.goldDB, qj.goldCache, sql)
}

// where names the database of dbID for one side.
func (qj *questionJob) where(sd side, dbID string) (string, bool) {
	if sd.locate == nil {
		return qj.sqlitePath, qj.sqlitePath != ""
	}
	return sd.locate(dbID)
}

// locate finds the question's database for both sides; the message says which is missing.
func (qj *questionJob) locate(ds *dataset.Dataset, dbID string) (string, bool) {
	var ok bool
	if qj.predDB, ok = qj.where(qj.pred, dbID); !ok {
		return fmt.Sprintf("database %q not found under %s", dbID, ds.DBRoot), false
	}
	if qj.goldDB, ok = qj.where(qj.gold, dbID); !ok {
		return fmt.Sprintf("gold database %q not found under %s", dbID, ds.DBRoot), false
	}
	qj.predCache = map[string]outcome{}
	qj.goldCache = qj.predCache
	if qj.gold.separate {
		qj.goldCache = map[string]outcome{}
	}
	return "", true
}

func (qj *questionJob) judge(ds *dataset.Dataset, i int, systems []System) []*record.Record {
	q := &ds.Questions[i]
	base := func(p *predict.Prediction) *record.Record {
		r := &record.Record{Index: q.Index, QuestionID: q.ID, DBID: q.DBID, Difficulty: q.Difficulty, Question: q.Text}
		if len(q.Gold) > 0 {
			r.GoldSQL = q.Gold[0]
		}
		if p != nil {
			r.PredSQL = p.SQL
			r.Usage = p.Usage
			r.SelectedSchema = p.SelectedSchema
			r.RevisionApplied = p.Revised
		}
		return r
	}
	recs := make([]*record.Record, len(systems))
	// every gives every system's record verdict v and msg: the question is not judged.
	every := func(v record.Verdict, msg string) []*record.Record {
		for s, sys := range systems {
			r := base(sys.Preds[i])
			r.Verdict = v
			r.ErrorMessage = msg
			recs[s] = r
		}
		return recs
	}
	if msg, ok := qj.locate(ds, q.DBID); !ok {
		return every(record.Skipped, msg)
	}
	var goldErr error
	var goldCorners []string // of the golds the official rewrite changed
	for _, g := range q.Gold {
		gr := goldResult{bird: qj.execGold(g)}
		if gr.bird.err != nil {
			if goldErr == nil {
				goldErr = gr.bird.err
			}
			continue
		}
		sg := SpiderRewriteGold(g)
		gr.spider = qj.execGold(sg)
		gr.orderMatters = SpiderOrderMatters(sg)
		gr.changed = sg != g && rewriteChanged(gr.bird, gr.spider)
		if qj.spiderMode == SpiderCorrected {
			gr.corrected, gr.correctedOrder = gr.spider, gr.orderMatters
			if cg := SpiderCorrectGold(g); cg != sg {
				gr.corrected, gr.correctedOrder = qj.execGold(cg), SpiderOrderMatters(cg)
			}
		}
		if gr.changed {
			goldCorners = append(goldCorners, SpiderRewriteCorners(g, false, true)...)
		}
		qj.golds = append(qj.golds, gr)
	}
	if len(qj.golds) == 0 {
		msg := "no gold SQL"
		if goldErr != nil {
			msg = "gold SQL failed: " + goldErr.Error()
		}
		return every(record.GoldError, msg)
	}
	for s, sys := range systems {
		p := sys.Preds[i]
		r := base(p)
		r.GoldRows = qj.golds[0].bird.res.NumRows()
		if p == nil {
			r.Verdict, r.ErrorCategory, r.ErrorMessage = record.Error, record.Other, "no prediction for this question"
			recs[s] = r
			continue
		}
		j := qj.judgeSQL(p.SQL)
		r.Verdict, r.ErrorCategory, r.ErrorMessage = j.verdict, j.category, j.message
		r.ExBird, r.ExSpider, r.PredRows = j.exBird, j.exSpider, j.rows
		r.ResultDiff.Diff = j.diff
		r.SpiderRewrite = qj.rewriteNote(goldCorners, j)
		r.ExecMillis = float64(j.dur.Microseconds()) / 1000
		if qj.softF1 {
			r.SoftF1 = &j.softF1
		}
		if qj.flex {
			r.FlexMatch = j.flex
		}
		for _, c := range p.Candidates {
			cj := qj.judgeSQL(c)
			r.Candidates = append(r.Candidates, record.Candidate{SQL: c, Verdict: cj.verdict, ErrorCategory: cj.category})
		}
		recs[s] = r
	}
	return recs
}

// judgement is the outcome of judging one SQL text against the question's golds.
type judgement struct {
	verdict          record.Verdict
	category         record.ErrorCategory
	message          string
	exBird, exSpider int
	// exSpiderOfficial is ex_spider under the official rewrite (corrected mode: exSpider
	// is the corrected one).
	exSpiderOfficial int
	// predChanged: the official rewrite changed what the prediction means; predCorners
	// names how.
	predChanged bool
	predCorners []string
	rows        int
	dur         time.Duration
	softF1      float64 // BIRD Soft-F1 against the first gold that ran; 0 on error
	flex        record.FlexMatch
	diff        *record.Diff // how an incorrect result differs (resultdiff.go)
}

func (qj *questionJob) judgeSQL(sql string) judgement {
	if !utf8.ValidString(sql) {
		return judgement{verdict: record.Error, category: record.Other, message: "prediction is not valid UTF-8"}
	}
	ob := emptyAsNoRows(qj.exec(sql))
	osp := ob
	var j judgement
	if sp := SpiderRewritePred(sql); sp != sql {
		osp = emptyAsNoRows(qj.exec(sp))
		osp.dur += ob.dur
		if j.predChanged = rewriteChanged(ob, osp); j.predChanged {
			j.predCorners = SpiderRewriteCorners(sql, true, ob.err == nil)
		}
	}
	if ob.empty {
		j.message = emptyPredictionNote
	}
	j.dur = osp.dur
	if ob.err == nil && qj.softF1 {
		g := &qj.golds[0] // one question's systems are judged one after another: no lock
		if g.softF1 == nil {
			g.softF1 = NewSoftF1Gold(g.bird.res)
		}
		j.softF1 = g.softF1.Score(ob.res)
	}
	for _, g := range qj.golds {
		if ob.err == nil && BirdEqual(ob.res, g.bird.res) {
			j.exBird = 1
		}
		if osp.err == nil && g.spider.err == nil && SpiderEqual(g.spider.res, osp.res, g.orderMatters) {
			j.exSpider = 1
		}
	}
	j.exSpiderOfficial = j.exSpider
	if qj.spiderMode == SpiderCorrected {
		osp = qj.correctedPred(sql, ob, osp)
		j.dur, j.exSpider = osp.dur, 0
		for _, g := range qj.golds {
			if osp.err == nil && g.corrected.err == nil && SpiderEqual(g.corrected.res, osp.res, g.correctedOrder) {
				j.exSpider = 1
			}
		}
	}
	if qj.flex {
		j.flex = qj.flexAgainstGolds(ob)
	}
	primary, ex := ob, j.exBird
	if qj.sem == Spider {
		primary, ex = osp, j.exSpider
	}
	switch {
	case primary.err != nil:
		j.verdict, j.category, j.message = record.Error, Categorize(primary.err), primary.err.Error()
	case ex == 1:
		j.verdict = record.Correct
		j.rows = primary.res.NumRows()
	default:
		j.verdict = record.Incorrect
		j.rows = primary.res.NumRows()
		j.diff = qj.diffAgainstGold(primary)
	}
	return j
}

// diffAgainstGold is how primary (an incorrect prediction's result under the run's
// semantics) differs from the first gold's result under the same semantics.
func (qj *questionJob) diffAgainstGold(primary outcome) *record.Diff {
	g := &qj.golds[0]
	gold, order := g.bird, false
	if qj.sem == Spider {
		gold, order = g.spider, g.orderMatters
		if qj.spiderMode == SpiderCorrected {
			gold, order = g.corrected, g.correctedOrder
		}
	}
	if gold.err != nil || gold.res == nil || primary.res == nil {
		return nil
	}
	d := DiffResults(primary.res, gold.res, order)
	return &d
}

// flexAgainstGolds is the best flexible comparison of a prediction's result with any
// accepted gold (exact before column_flexible before failure).
func (qj *questionJob) flexAgainstGolds(o outcome) record.FlexMatch {
	zero := 0
	if o.err != nil {
		return record.FlexMatch{Flex: &zero, FlexVerdict: string(FlexFailure), FlexReason: "prediction failed to run"}
	}
	rank := map[FlexVerdict]int{FlexExact: 2, FlexColumnFlexible: 1}
	var best FlexResult
	for i, g := range qj.golds {
		if fr := FlexCompare(g.bird.res, o.res); i == 0 || rank[fr.Verdict] > rank[best.Verdict] {
			best = fr
		}
	}
	f := record.FlexMatch{FlexVerdict: string(best.Verdict), Flex: &zero}
	if best.Verdict == FlexExact || best.Verdict == FlexColumnFlexible {
		one := 1
		f.Flex = &one
	} else {
		f.FlexReason = best.Reason
	}
	return f
}
