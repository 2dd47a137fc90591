package judge

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// The timing phase measures how fast correct predictions run relative to their gold SQL,
// for VES and R-VES. It runs after judging, alone and sequentially: timing while other
// queries share the CPU measures the other queries. Two modes:
//
//   - official: as BIRD's scripts do. Each iteration executes the prediction, then the
//     gold, each on a fresh connection (open, execute, fetch all); the ratio is the mean
//     of the per-iteration ratios within 3 standard deviations.
//   - robust: what holds still from run to run. One warm connection per database, warm-up
//     executions first, prediction and gold interleaved (the order alternates every
//     iteration, so drift hits both alike), a monotonic clock, the median ratio, set to
//     exactly 1 when 1 is inside the median's confidence interval (snapToOne); a
//     prediction identical to the gold after normalisation gets ratio exactly 1 without
//     being timed. Fast queries are repeated inside a sample until it lasts MinSample.
//
// To add a mode: a TimingMode constant and a case in timeItem.

// TimingMode picks how predictions are timed.
type TimingMode string

// Timing modes.
const (
	TimingOfficial TimingMode = "official"
	TimingRobust   TimingMode = "robust"
)

// ParseTimingMode checks a mode name.
func ParseTimingMode(s string) (TimingMode, error) {
	switch TimingMode(s) {
	case TimingOfficial, TimingRobust:
		return TimingMode(s), nil
	}
	return "", fmt.Errorf("%w: %q (want official or robust)", ErrTimingMode, s)
}

// Sentinel errors of the timing phase.
var (
	ErrTimingMode   = errors.New("unknown timing mode")
	ErrTimingBudget = errors.New("timing exceeds its budget")
)

// Default timing settings.
const (
	DefaultTimingIterations = 100
	DefaultTimingWarmup     = 3
	// DefaultMinSample is robust mode's shortest sample: a query faster than this is
	// repeated inside one sample, so scheduler and timer jitter of a few microseconds
	// does not decide a 20µs query's ratio.
	DefaultMinSample = 200 * time.Microsecond
)

// TimingOptions control the timing phase.
type TimingOptions struct {
	Mode       TimingMode
	Iterations int           // timed (prediction, gold) pairs per item; 0 = DefaultTimingIterations
	Warmup     int           // robust: untimed executions of each first; 0 = DefaultTimingWarmup, <0 = none
	MinSample  time.Duration // robust: repeat a fast query inside one sample until it lasts this long; 0 = DefaultMinSample, <0 = never
	Timeout    time.Duration // per execution; 0 = none
	MaxRows    int           // per result; 0 = no cap
	// Budget bounds the whole phase and ItemBudget one item: iterations x (gold +
	// prediction) time. Before timing starts the phase is estimated from the judge's own
	// execution times (TimingItem.PredEst, GoldEst) and refused if over budget; while it
	// runs it stops as soon as a budget is exceeded. 0 = unbounded.
	Budget, ItemBudget time.Duration
	// Progress, if set, is called after each item with the number done and the total.
	Progress func(done, total int)
}

// TimingItem is one correct prediction to time against its gold SQL.
type TimingItem struct {
	DB               string // database file
	Pred, Gold       string
	PredEst, GoldEst time.Duration // one execution each, as measured while judging
}

// TimingResult is the timing of one item.
type TimingResult struct {
	Ratio      float64 // gold time / prediction time, aggregated as the mode says; 0 = none
	Spread     float64 // interquartile range of the per-iteration ratios
	Iterations int     // ratios measured
	Identical  bool    // robust: prediction equals gold after normalisation; not timed
	PredTime   time.Duration
	GoldTime   time.Duration // medians of one execution
	Err        error         // an execution failed while timing: the ratio is 0, as officially
}

// BudgetError says why a timing phase was refused or stopped.
type BudgetError struct {
	Estimate   bool          // true: refused before starting, from estimates
	Total      time.Duration // estimated (or elapsed) time of the whole phase
	Budget     time.Duration
	Item       int // index of the item over ItemBudget, -1 if none
	ItemTime   time.Duration
	ItemBudget time.Duration
	Items      int
	Iterations int
}

func (e *BudgetError) Error() string {
	verb := "took"
	if e.Estimate {
		verb = "would take about"
	}
	if e.Item >= 0 {
		return fmt.Sprintf("timing item %d %s %s (%d iterations x (gold + prediction)), over the per-item budget of %s: lower the iterations or raise the item budget",
			e.Item, verb, e.ItemTime.Round(time.Millisecond), e.Iterations, e.ItemBudget)
	}
	return fmt.Sprintf("timing %d correct predictions x %d iterations %s %s, over the budget of %s: lower the iterations or raise the budget",
		e.Items, e.Iterations, verb, e.Total.Round(time.Second), e.Budget)
}

// Is makes errors.Is(err, ErrTimingBudget) true.
func (e *BudgetError) Is(target error) bool { return target == ErrTimingBudget }

func (o *TimingOptions) iterations() int {
	if o.Iterations > 0 {
		return o.Iterations
	}
	return DefaultTimingIterations
}

// CheckTimingBudget estimates the phase from the judge's execution times and returns a
// *BudgetError when it would not fit. Robust mode skips identical predictions and adds
// its warm-up runs.
func CheckTimingBudget(items []TimingItem, opt TimingOptions) error {
	n := opt.iterations()
	runs := n
	if opt.Mode == TimingRobust {
		runs += warmup(opt)
	}
	var total time.Duration
	for i, it := range items {
		if opt.Mode == TimingRobust && SameSQL(it.Pred, it.Gold) {
			continue
		}
		d := time.Duration(runs) * (it.PredEst + it.GoldEst)
		if opt.Mode == TimingRobust {
			d = max(d, time.Duration(runs)*2*minSample(opt))
		}
		if opt.ItemBudget > 0 && d > opt.ItemBudget {
			return &BudgetError{Estimate: true, Item: i, ItemTime: d, ItemBudget: opt.ItemBudget, Iterations: n, Items: len(items)}
		}
		total += d
	}
	if opt.Budget > 0 && total > opt.Budget {
		return &BudgetError{Estimate: true, Total: total, Budget: opt.Budget, Item: -1, Items: len(items), Iterations: n}
	}
	return nil
}

func minSample(opt TimingOptions) time.Duration { return orDefault(opt.MinSample, DefaultMinSample) }

func warmup(opt TimingOptions) int { return orDefault(opt.Warmup, DefaultTimingWarmup) }

// orDefault reads a timing option: 0 means the default, a negative value none.
func orDefault[T int | time.Duration](v, def T) T {
	switch {
	case v < 0:
		return 0
	case v == 0:
		return def
	}
	return v
}

// TimeItems runs the timing phase over items, one at a time. It checks the budget first
// (CheckTimingBudget). A failing execution does not stop the phase: it gives that item
// ratio 0 and an Err. Cancelling ctx or exceeding a budget stops it with an error.
func TimeItems(ctx context.Context, items []TimingItem, opt TimingOptions) ([]TimingResult, error) {
	if _, err := ParseTimingMode(string(opt.Mode)); err != nil {
		return nil, err
	}
	t := &timer{opt: opt, lim: engine.Limits{Timeout: opt.Timeout, MaxRows: opt.MaxRows}}
	if err := t.calibrate(ctx, items); err != nil {
		return nil, err
	}
	if err := CheckTimingBudget(items, opt); err != nil {
		return nil, err
	}
	if opt.Mode == TimingRobust {
		t.warm = engine.NewSQLite()
		t.warm.MaxConnsPerDB = 1
		defer t.warm.Close()
	}
	out := make([]TimingResult, len(items))
	start := time.Now()
	for i := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t0 := time.Now()
		r, err := t.timeItem(ctx, &items[i])
		if err != nil {
			return nil, err
		}
		out[i] = r
		if d := time.Since(t0); opt.ItemBudget > 0 && d > opt.ItemBudget {
			return nil, &BudgetError{Item: i, ItemTime: d, ItemBudget: opt.ItemBudget, Iterations: opt.iterations(), Items: len(items)}
		}
		if d := time.Since(start); opt.Budget > 0 && d > opt.Budget {
			return nil, &BudgetError{Total: d, Budget: opt.Budget, Item: -1, Items: len(items), Iterations: opt.iterations()}
		}
		if opt.Progress != nil {
			opt.Progress(i+1, len(items))
		}
	}
	return out, nil
}

// calibrate fills missing estimates (PredEst, GoldEst zero) by executing the query
// once, so the budget is checked against real times before the long phase starts. A
// query that fails here is left at zero: timing will give its item ratio 0.
func (t *timer) calibrate(ctx context.Context, items []TimingItem) error {
	for i := range items {
		it := &items[i]
		if t.opt.Mode == TimingRobust && SameSQL(it.Pred, it.Gold) {
			continue
		}
		for _, q := range []struct {
			sql string
			est *time.Duration
		}{{it.Pred, &it.PredEst}, {it.Gold, &it.GoldEst}} {
			if *q.est > 0 {
				continue
			}
			d, err := t.run(ctx, it.DB, q.sql, 1)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err == nil {
				*q.est = d
			}
		}
	}
	return nil
}

// timer executes and times queries for one phase.
type timer struct {
	opt  TimingOptions
	lim  engine.Limits
	warm *engine.SQLite // robust: one warm connection per database
}

// run executes sql reps times and returns the time of one execution (time.Since reads
// Go's monotonic clock). An empty statement counts as an instant empty result, as the
// official scripts' Python sqlite3 runs it.
func (t *timer) run(ctx context.Context, db, sql string, reps int) (time.Duration, error) {
	if t.warm == nil {
		// official: a fresh connection for each execution, opened inside the timed span as
		// the script's connect + execute + fetchall
		e := engine.NewSQLite()
		e.MaxConnsPerDB = 1
		t0 := time.Now()
		_, err := e.Query(ctx, db, sql, t.lim)
		d := time.Since(t0)
		e.Close()
		if errors.Is(err, engine.ErrEmptyQuery) {
			err = nil
		}
		return d, err
	}
	t0 := time.Now()
	for range reps {
		if _, err := t.warm.Query(ctx, db, sql, t.lim); err != nil && !errors.Is(err, engine.ErrEmptyQuery) {
			return 0, err
		}
	}
	return time.Since(t0) / time.Duration(reps), nil
}

func (t *timer) timeItem(ctx context.Context, it *TimingItem) (TimingResult, error) {
	n := t.opt.iterations()
	robust := t.opt.Mode == TimingRobust
	if robust && SameSQL(it.Pred, it.Gold) {
		return TimingResult{Ratio: 1, Identical: true}, nil
	}
	fail := func(err error) (TimingResult, error) {
		if ctx.Err() != nil {
			return TimingResult{}, ctx.Err()
		}
		return TimingResult{Err: err}, nil
	}
	reps := 1
	if robust {
		var slowest time.Duration
		for range warmup(t.opt) {
			slowest = 0 // the last round, once caches are warm, sizes the samples
			for _, q := range [2]string{it.Pred, it.Gold} {
				d, err := t.run(ctx, it.DB, q, 1)
				if err != nil {
					return fail(err)
				}
				slowest = max(slowest, d)
			}
		}
		if ms := minSample(t.opt); ms > 0 && slowest > 0 && slowest < ms {
			reps = min(int(math.Ceil(float64(ms)/float64(slowest))), 100)
		}
	}
	ratios := make([]float64, 0, n)
	preds := make([]float64, 0, n)
	golds := make([]float64, 0, n)
	for i := range n {
		var pd, gd time.Duration
		var err error
		// official: prediction then gold, always; robust: the order alternates
		if !robust || i%2 == 0 {
			if pd, err = t.run(ctx, it.DB, it.Pred, reps); err == nil {
				gd, err = t.run(ctx, it.DB, it.Gold, reps)
			}
		} else {
			if gd, err = t.run(ctx, it.DB, it.Gold, reps); err == nil {
				pd, err = t.run(ctx, it.DB, it.Pred, reps)
			}
		}
		if err != nil {
			return fail(err)
		}
		pd = max(pd, time.Nanosecond) // a zero-length span would divide by zero
		ratios = append(ratios, float64(gd)/float64(pd))
		preds = append(preds, float64(pd))
		golds = append(golds, float64(gd))
	}
	r := TimingResult{
		Iterations: len(ratios),
		Spread:     IQR(ratios),
		PredTime:   time.Duration(Median(preds)),
		GoldTime:   time.Duration(Median(golds)),
	}
	if robust {
		r.Ratio = snapToOne(Median(ratios), r.Spread, len(ratios))
	} else {
		r.Ratio = OfficialRatio(ratios)
	}
	return r, nil
}

// snapToOne returns 1 when a median ratio cannot be told apart from 1: when 1 lies
// inside the median's approximate 95% confidence interval, median ± 1.58 IQR / sqrt(n)
// (the notch of a notched box plot, McGill, Tukey and Larsen 1978). Two queries that run
// the same plan then score as equally fast every run, instead of falling at random on
// either side of R-VES's bucket boundary at 1.
func snapToOne(median, iqr float64, n int) float64 {
	if n == 0 {
		return median
	}
	if math.Abs(median-1) <= 1.58*iqr/math.Sqrt(float64(n)) {
		return 1
	}
	return median
}

// SameSQL reports whether two SQL texts are the same query up to letter case outside
// quotes, white space, and trailing semicolons: robust timing gives such a prediction
// ratio exactly 1 instead of measuring noise.
func SameSQL(a, b string) bool { return normalizeSQL(a) == normalizeSQL(b) }

// normalizeSQL lower-cases (ASCII) outside quoted strings and identifiers, collapses runs
// of white space to one space (dropping it next to punctuation), and trims semicolons.
func normalizeSQL(s string) string {
	s = strings.TrimRight(strings.TrimSpace(s), "; \t\r\n")
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); {
		t := sqlscan.Next(s, i)
		i = t.End
		text := t.Text(s)
		switch t.Kind {
		case sqlscan.Space:
			space = true
			continue
		case sqlscan.String, sqlscan.Ident:
		default:
			text = asciiLower(text)
		}
		if space {
			if b.Len() > 0 && !isSQLPunct(text[0]) && !isSQLPunct(lastByte(&b)) {
				b.WriteByte(' ')
			}
			space = false
		}
		b.WriteString(text)
	}
	return b.String()
}

func lastByte(b *strings.Builder) byte {
	s := b.String()
	return s[len(s)-1]
}

func isSQLPunct(c byte) bool { return strings.IndexByte("(),=<>+-*/", c) >= 0 }
