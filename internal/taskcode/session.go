package taskcode

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/livesql"
	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// errInfra marks a fault of the database connection, not of the test: Run returns it.
var errInfra = errors.New("database fault during a test case")

// session is the parent's side of one sandbox's protocol: JSON lines, one request from
// the sandbox, one answer from us, until the sandbox sends its outcome ("done").
type session struct {
	db         DB
	lim        Limits
	in         io.Writer
	out        *bufio.Reader
	statements int
}

// request is every message the sandbox may send.
type request struct {
	Op string `json:"op"`
	// exec
	SQL  string `json:"sql"`
	Keep int    `json:"keep"`
	// clean, check_usage, ex_base
	Fn       string    `json:"fn"`
	SQLs     []string  `json:"sqls"`
	Keywords []string  `json:"keywords"`
	Pred     []*string `json:"pred"`
	Sol      []*string `json:"sol"`
	Order    bool      `json:"order"`
	// done
	Status    string `json:"status"`
	Class     string `json:"class"`
	Message   string `json:"message"`
	Traceback string `json:"traceback"`
	Output    string `json:"output"`
	Compile   bool   `json:"compile"`
}

func (s *session) serve(ctx context.Context, job []byte) (Outcome, error) {
	if _, err := s.in.Write(job); err != nil {
		return Outcome{}, fmt.Errorf("%w: sending the test case: %v", ErrProtocol, err)
	}
	for {
		line, err := readLine(s.out, maxLine)
		if err != nil {
			return Outcome{}, err
		}
		var req request
		if err := json.Unmarshal(line, &req); err != nil {
			return Outcome{}, fmt.Errorf("%w: %v", ErrProtocol, err)
		}
		if req.Op == "done" {
			return doneOutcome(req)
		}
		ans, err := s.answer(ctx, req)
		if err != nil {
			return Outcome{}, err
		}
		b, err := json.Marshal(ans)
		if err != nil {
			return Outcome{}, err
		}
		if _, err := s.in.Write(append(b, '\n')); err != nil {
			return Outcome{}, fmt.Errorf("%w: answering: %v", ErrProtocol, err)
		}
	}
}

func doneOutcome(req request) (Outcome, error) {
	o := Outcome{Class: req.Class, Message: req.Message, Traceback: req.Traceback, Output: req.Output, Compile: req.Compile}
	switch Status(req.Status) {
	case Passed, Assertion, TestError:
		o.Status = Status(req.Status)
	default:
		return Outcome{}, fmt.Errorf("%w: unknown status %q", ErrProtocol, req.Status)
	}
	return o, nil
}

func (s *session) answer(ctx context.Context, req request) (any, error) {
	switch req.Op {
	case "exec":
		return s.exec(ctx, req.SQL, req.Keep)
	case "clean":
		f, ok := cleaners[req.Fn]
		if !ok {
			return nil, fmt.Errorf("%w: unknown cleaner %q", ErrProtocol, req.Fn)
		}
		out := make([]string, len(req.SQLs))
		for i, q := range req.SQLs {
			out[i] = f(q)
		}
		return map[string]any{"value": out}, nil
	case "check_usage":
		return map[string]any{"value": livesql.CheckSQLFunctionUsage(req.SQLs, req.Keywords)}, nil
	case "ex_base":
		return s.exBase(ctx, req.Pred, req.Sol, req.Order)
	}
	return nil, fmt.Errorf("%w: unknown request %q", ErrProtocol, req.Op)
}

// cleaners are the official SQL cleaners, one implementation: package livesql's.
var cleaners = map[string]func(string) string{
	"remove_comments": livesql.RemoveComments,
	"remove_distinct": livesql.RemoveDistinct,
	"remove_round":    livesql.RemoveRound,
}

func (s *session) limits(keep int) taskdb.ExecLimits {
	return taskdb.ExecLimits{Timeout: s.lim.Statement, KeepRows: max(keep, 0)}
}

// run executes one statement string; fail is the statement's own failure.
func (s *session) run(ctx context.Context, sql string, keep int) (res *taskdb.Result, fail error, err error) {
	s.statements++
	res, err = s.db.Exec(ctx, sql, s.limits(keep))
	var se *taskdb.SQLError
	switch {
	case err == nil:
		return res, nil, nil
	case ctx.Err() != nil:
		return nil, nil, ctx.Err() // the sandbox's time is up: not the statement's fault
	case errors.As(err, &se), errors.Is(err, taskdb.ErrTimeout), errors.Is(err, taskdb.ErrTooLarge):
		return nil, err, nil
	}
	return nil, nil, fmt.Errorf("%w: %w", errInfra, err)
}

func (s *session) exec(ctx context.Context, sql string, keep int) (any, error) {
	res, fail, err := s.run(ctx, sql, keep)
	if err != nil {
		return nil, err
	}
	if fail != nil {
		return map[string]any{"error": wireError(fail)}, nil
	}
	return map[string]any{"result": wireResult(res)}, nil
}

func wireError(fail error) map[string]any {
	e := map[string]any{"class": "DatabaseError", "message": fail.Error()}
	var se *taskdb.SQLError
	switch {
	case errors.Is(fail, taskdb.ErrTimeout):
		e["class"] = "QueryCanceled"
		e["code"] = "57014"
	case errors.As(fail, &se):
		e["message"] = se.Message
		e["code"] = se.Code
		if se.Code == "" {
			e["class"] = "ProgrammingError" // psycopg2's "can't execute an empty query"
		}
	}
	return e
}

// wireResult is a result as the bootstrap reads it. PostgreSQL cells are the server's
// text, cast in the sandbox by each column's type as psycopg2 casts them; SQLite cells
// (native) keep their storage class.
func wireResult(r *taskdb.Result) map[string]any {
	cols := make([]map[string]any, len(r.Columns))
	native := false
	for i, c := range r.Columns {
		cols[i] = map[string]any{"name": c.Name, "type": c.Type, "oid": c.OID}
	}
	rows := make([][]any, len(r.Rows))
	for i, row := range r.Rows {
		cells := make([]any, len(row))
		for j, v := range row {
			switch x := v.(type) {
			case nil, string:
				cells[j] = x
			case int64:
				cells[j], native = map[string]string{"i": strconv.FormatInt(x, 10)}, true
			case float64:
				cells[j], native = map[string]string{"f": strconv.FormatFloat(x, 'g', -1, 64)}, true
			case []byte:
				cells[j], native = map[string]string{"b": hex.EncodeToString(x)}, true
			default:
				cells[j] = fmt.Sprint(x)
			}
		}
		rows[i] = cells
	}
	for _, c := range r.Columns {
		if c.OID == 0 && len(r.Columns) > 0 {
			native = true // SQLite: no PostgreSQL type to cast by
		}
	}
	return map[string]any{"columns": cols, "rows": rows, "has_rows": r.HasRows, "native": native, "rowcount": rowCount(r)}
}

// rowCount is psycopg2's cursor.rowcount: the rows a SELECT returned, or the count in
// the command tag of an INSERT, UPDATE, DELETE; -1 otherwise.
func rowCount(r *taskdb.Result) int {
	if r.HasRows {
		return r.TotalRows
	}
	f := strings.Fields(r.Tag)
	if len(f) >= 2 {
		if n, err := strconv.Atoi(f[len(f)-1]); err == nil {
			return n
		}
	}
	return -1
}

// exBase is the official ex_base after its empty-argument check (done in the sandbox):
// the prediction's statements, then the gold's, each list stopping at its first failure;
// any failure (a psycopg2 cast error counts: it happens at fetch time, inside
// execute_queries) gives 0. Then preprocess_results on the prediction and on the gold,
// which raises TypeError for a list whose last statement returned no rows (None) and
// whatever preprocessing raises; then package livesql's comparison.
func (s *session) exBase(ctx context.Context, pred, sol []*string, order bool) (any, error) {
	zero := map[string]any{"value": 0}
	pres, pfail, err := s.queries(ctx, pred)
	if err != nil {
		return nil, err
	}
	gres, gfail, err := s.queries(ctx, sol)
	if err != nil {
		return nil, err
	}
	if pfail || gfail {
		return zero, nil
	}
	// psycopg2 casts at fetch time, inside execute_queries: a value it cannot cast is
	// an execution error, seen before anything is preprocessed.
	var rows [2][][]livesql.Value
	for i, res := range []*taskdb.Result{pres, gres} {
		if res == nil || !res.HasRows {
			continue
		}
		if !textCells(res) {
			return raise("NotImplementedError", "ex_base compares PostgreSQL results only"), nil
		}
		if rows[i], err = livesql.FromPostgres(res); err != nil {
			return zero, nil
		}
	}
	for i, res := range []*taskdb.Result{pres, gres} {
		if res == nil || !res.HasRows {
			return raise("TypeError", "'NoneType' object is not iterable"), nil
		}
		if _, err := livesql.Preprocess(rows[i]); err != nil {
			return raisePython(err), nil
		}
	}
	ok, _, err := livesql.Compare(rows[0], rows[1], order)
	if err != nil {
		return raisePython(err), nil
	}
	if ok {
		return map[string]any{"value": 1}, nil
	}
	return zero, nil
}

// queries is execute_queries: a nil statement (not a string in Python) fails there.
func (s *session) queries(ctx context.Context, sqls []*string) (last *taskdb.Result, failed bool, err error) {
	for _, q := range sqls {
		if q == nil {
			return last, true, nil
		}
		res, fail, err := s.run(ctx, *q, livesql.OfficialRows)
		if err != nil {
			return nil, false, err
		}
		if fail != nil {
			return last, true, nil
		}
		last = res
	}
	return last, false, nil
}

func textCells(r *taskdb.Result) bool {
	for _, row := range r.Rows {
		for _, v := range row {
			if _, ok := v.(string); v != nil && !ok {
				return false
			}
		}
	}
	return true
}

func raise(class, msg string) map[string]any {
	return map[string]any{"raise": map[string]string{"class": class, "message": msg}}
}

// raisePython turns livesql's ErrPython ("python error: TypeError: ...") into the
// exception the official Python raised.
func raisePython(err error) map[string]any {
	msg := strings.TrimPrefix(err.Error(), livesql.ErrPython.Error()+": ")
	if i := strings.Index(msg, livesql.ErrPython.Error()+": "); i >= 0 {
		msg = msg[i+len(livesql.ErrPython.Error())+2:]
	}
	class, rest, ok := strings.Cut(msg, ": ")
	if !ok || strings.ContainsAny(class, " \"") {
		return raise("RuntimeError", msg)
	}
	return raise(class, rest)
}
