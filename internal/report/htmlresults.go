package report

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// Records do not store results, so the drill-down can re-execute the gold and the
// prediction read-only through the engine (the same engine the judge used), with the run's
// timeout and a cap on the rows read, and show the first rows. It does so only on a
// database root the user gave (ExecOptions.DBRoot), never on the one the run records: a
// run directory may be anyone's and name any file on the machine.

// ResultView is one query's result as the drill-down shows it.
type ResultView struct {
	Columns []string
	Rows    [][]Cell
	Total   int    // rows the query returned
	Note    string // "first 10 of 1234 rows", or why there is no table
}

// Cell is one value; Diff marks a value of a row the other result does not have.
type Cell struct {
	Text string
	Diff bool
}

// ExecOptions bound the drill-down's re-execution.
type ExecOptions struct {
	Rows    int           // rows shown per result (default 10)
	MaxRows int           // rows read at most; a larger result is not shown (default 100,000)
	Timeout time.Duration // per query (default: the run's, at most 10s)
	// MaxBytes bounds a result read for the drill-down (default DrillMaxBytes): it shows
	// a few rows, and the dashboard serves requests side by side.
	MaxBytes int64
	// NoExec leaves result tables out: serve runs no query (serve --no-exec).
	NoExec bool
	// DBRoot is the database root the user gave (report and serve --db-root): queries
	// run only on database files that resolve inside it (dataset.DBPathInside), looked up
	// by the layout of the run's dataset kind. "" runs no query.
	DBRoot string
}

// ExecFlag is the flag that turns re-execution on, for the notes that say how.
const ExecFlag = "--db-root DIR"

// Executes says whether opt lets the drill-down run queries.
func (opt ExecOptions) Executes() bool { return !opt.NoExec && opt.DBRoot != "" }

// DrillMaxBytes is the default byte cap of a drill-down result: enough for any result
// a page shows, a sixteenth of eval's (engine.DefaultMaxBytes).
const DrillMaxBytes = 16 << 20

// executor runs queries for the drill-down of one run; gold results are cached per question.
type executor struct {
	eng  engine.Engine
	ds   *dataset.Dataset
	opt  ExecOptions
	gold map[string]*engine.Result
	gerr map[string]error
	// runTimeout is the timeout the run judged with: a prediction that timed out then is
	// not run again unless the drill-down may wait longer (rerun).
	runTimeout time.Duration
}

// rerun says whether a prediction judged with errorCategory is worth running again.
func (x *executor) rerun(errorCategory string) bool {
	return errorCategory != string(record.Timeout) || x.opt.Timeout > x.runTimeout
}

func newExecutor(run *rundir.Run, eng engine.Engine, opt ExecOptions) *executor {
	if opt.Rows <= 0 {
		opt.Rows = 10
	}
	if opt.MaxRows <= 0 {
		opt.MaxRows = 100_000
	}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = DrillMaxBytes
	}
	runTimeout := time.Duration(run.Summary.Settings.TimeoutS * float64(time.Second))
	if opt.Timeout <= 0 {
		opt.Timeout = runTimeout
		if opt.Timeout <= 0 || opt.Timeout > 10*time.Second {
			opt.Timeout = 10 * time.Second
		}
	}
	// The layout is the run's kind's; the root is the user's, and no file outside it.
	ds := &dataset.Dataset{Kind: run.Summary.Dataset.Kind, DBRoot: opt.DBRoot, Confined: true}
	return &executor{eng: eng, ds: ds, opt: opt, gold: map[string]*engine.Result{}, gerr: map[string]error{}, runTimeout: runTimeout}
}

func (x *executor) query(ctx context.Context, dbID, sql string) (*engine.Result, error) {
	path, err := x.ds.DBPathInside(dbID)
	if err != nil {
		return nil, err
	}
	return x.eng.Query(ctx, path, sql, engine.Limits{Timeout: x.opt.Timeout, MaxRows: x.opt.MaxRows, MaxBytes: x.opt.MaxBytes})
}

func (x *executor) goldResult(ctx context.Context, dbID, sql string) (*engine.Result, error) {
	k := dbID + "\x00" + sql
	if r, ok := x.gold[k]; ok {
		return r, x.gerr[k]
	}
	r, err := x.query(ctx, dbID, sql)
	x.gold[k], x.gerr[k] = r, err
	return r, err
}

// skipTimedOut stands for a prediction pair does not run again: it timed out when judged.
// Not SQL (a NUL byte), so no prediction can be it.
const skipTimedOut = "\x00timed out"

var errTimedOutWhenJudged = errors.New("it ran past the run's timeout when judged; not run again for this view")

// pair executes gold and prediction and renders both with differing rows marked.
func (x *executor) pair(ctx context.Context, dbID, gold, pred string) (g, p *ResultView) {
	gr, gerr := x.goldResult(ctx, dbID, gold)
	var pr *engine.Result
	var perr error
	switch pred {
	case "":
		perr = engine.ErrEmptyQuery
	case skipTimedOut:
		perr = errTimedOutWhenJudged
	default:
		pr, perr = x.query(ctx, dbID, pred)
	}
	var gkeys, pkeys map[string]bool
	if gr != nil && pr != nil {
		gkeys, pkeys = rowKeys(gr), rowKeys(pr)
	}
	return x.view(gr, gerr, pkeys), x.view(pr, perr, gkeys)
}

func (x *executor) view(r *engine.Result, err error, other map[string]bool) *ResultView {
	if err != nil {
		note := "not executed: " + err.Error()
		switch {
		case errors.Is(err, engine.ErrByteLimit):
			note = "larger than the byte limit: not shown (" + err.Error() + ")"
		case errors.Is(err, engine.ErrRowLimit):
			note = fmt.Sprintf("more than %d rows: not shown", x.opt.MaxRows)
		}
		return &ResultView{Note: note}
	}
	v := &ResultView{Columns: r.Columns, Total: r.NumRows()}
	for i := range r.NumRows() {
		row := r.Row(i)
		if i >= x.opt.Rows {
			v.Note = fmt.Sprintf("first %d of %d rows", x.opt.Rows, r.NumRows())
			break
		}
		diff := other != nil && !other[rowKey(row)]
		cells := make([]Cell, len(row))
		for j, val := range row {
			cells[j] = Cell{Text: cellText(val), Diff: diff}
		}
		v.Rows = append(v.Rows, cells)
	}
	if v.Note == "" {
		v.Note = plural(r.NumRows(), "row")
	}
	return v
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// rowKey identifies a row up to BIRD's value equality for numbers (1 == 1.0), so rows that
// differ only in numeric type are not marked.
func rowKey(row []any) string {
	var b []byte
	for _, v := range row {
		switch x := v.(type) {
		case nil:
			b = append(b, 'N')
		case int64:
			b = append(b, 'n')
			b = strconv.AppendFloat(b, float64(x), 'g', -1, 64)
		case float64:
			b = append(b, 'n')
			b = strconv.AppendFloat(b, x, 'g', -1, 64)
		case string:
			b = append(b, 's')
			b = append(b, x...)
		case []byte:
			b = append(b, 'b')
			b = append(b, x...)
		default:
			b = fmt.Appendf(b, "?%v", x)
		}
		b = append(b, 0)
	}
	return string(b)
}

func rowKeys(r *engine.Result) map[string]bool {
	m := make(map[string]bool, r.NumRows())
	for rowI := range r.NumRows() {
		row := r.Row(rowI)
		m[rowKey(row)] = true
	}
	return m
}

// cellText prints a value for people; long values are cut.
func cellText(v any) string {
	var s string
	switch x := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return fmt.Sprint(x)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		s = x
		if !utf8.ValidString(s) {
			s = fmt.Sprintf("%q", s)
		}
	case []byte:
		return fmt.Sprintf("<blob %d bytes>", len(x))
	default:
		s = fmt.Sprint(x)
	}
	if r := []rune(s); len(r) > 200 {
		s = string(r[:199]) + "…"
	}
	return s
}
