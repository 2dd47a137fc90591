package taskdb

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestExec runs the cases every backend must agree on, on one copy.
func TestExec(t *testing.T) {
	type want struct {
		err     error // errors.Is; a *SQLError when sqlErr
		sqlErr  bool
		hasRows bool
		rows    int // rows kept
		total   int
	}
	cases := []struct {
		name string
		sql  string
		lim  ExecLimits
		want want
	}{
		{"select", "SELECT id FROM t ORDER BY id", ExecLimits{}, want{hasRows: true, rows: 3, total: 3}},
		{"no rows is still rows", "SELECT id FROM t WHERE id < 0", ExecLimits{}, want{hasRows: true}},
		{"update has no rows", "UPDATE t SET name = name", ExecLimits{}, want{}},
		{"the last statement's result", "UPDATE t SET name = name; SELECT 1", ExecLimits{}, want{hasRows: true, rows: 1, total: 1}},
		{"keep rows", "SELECT id FROM t", ExecLimits{KeepRows: 2}, want{hasRows: true, rows: 2, total: 3}},
		{"sql error", "SELECT nope FROM t", ExecLimits{}, want{sqlErr: true}},
		{"error rolls back", "INSERT INTO t VALUES (9, 'x', 1); SELECT nope", ExecLimits{}, want{sqlErr: true}},
		{"rolled back", "SELECT id FROM t WHERE id = 9", ExecLimits{}, want{hasRows: true}},
		{"empty", "  ", ExecLimits{}, want{sqlErr: true}},
		{"byte cap", "SELECT name FROM t", ExecLimits{MaxBytes: 10}, want{err: ErrTooLarge}},
		// SQLite attaches nothing: ATTACH wrote any file the tool's user may (issue 41 attacks).
		// A NUL byte: PostgreSQL's protocol dropped the session (08P01), now the SQL's error.
		{"nul byte", "SELECT 1\x00; SELECT 2", ExecLimits{}, want{sqlErr: true}},
		{"attach refused", "ATTACH DATABASE ':memory:' AS x", ExecLimits{}, want{sqlErr: true}},
	}
	t.Parallel() // waits on the servers (issue 44)
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b := open(t)
			ctx := context.Background()
			tmpl, err := b.template(ctx, Setup{Name: "exec", Steps: uniqueSetup(t).Steps})
			if err != nil {
				t.Fatal(err)
			}
			dropTemplate(t, tmpl)
			c, err := tmpl.Copy(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Drop(ctx)
			for _, tc := range cases {
				res, err := c.Exec(ctx, tc.sql, tc.lim)
				var se *SQLError
				switch {
				case tc.want.err != nil || tc.want.sqlErr:
					if (tc.want.err != nil && !errors.Is(err, tc.want.err)) || (tc.want.sqlErr && !errors.As(err, &se)) {
						t.Errorf("%s: err %v, want %v (sql error %v)", tc.name, err, tc.want.err, tc.want.sqlErr)
					}
				case err != nil:
					t.Errorf("%s: %v", tc.name, err)
				case res.HasRows != tc.want.hasRows || len(res.Rows) != tc.want.rows || res.TotalRows != tc.want.total:
					t.Errorf("%s: has rows %v, %d rows of %d; want %v, %d of %d", tc.name, res.HasRows, len(res.Rows), res.TotalRows,
						tc.want.hasRows, tc.want.rows, tc.want.total)
				}
			}
			if name == "mysql" {
				// MySQL: the session's statement limit stops a runaway statement.
				start := time.Now()
				_, err = c.Exec(ctx, "SELECT SLEEP(5) FROM t", ExecLimits{Timeout: 200 * time.Millisecond})
				if !errors.Is(err, ErrTimeout) || time.Since(start) > 3*time.Second {
					t.Errorf("SLEEP(5) under a 200ms timeout: %v after %v", err, time.Since(start))
				}
				if res, err := c.Exec(ctx, "SELECT COUNT(*) FROM t", ExecLimits{}); err != nil || len(res.Rows) != 1 {
					t.Errorf("after a timeout: %v %+v", err, res)
				}
			}
			if name != "postgres" {
				return
			}
			// PostgreSQL: the server's statement_timeout stops a runaway statement.
			start := time.Now()
			_, err = c.Exec(ctx, "SELECT pg_sleep(5)", ExecLimits{Timeout: 200 * time.Millisecond})
			if !errors.Is(err, ErrTimeout) || time.Since(start) > 2*time.Second {
				t.Errorf("pg_sleep(5) under a 200ms timeout: %v after %v", err, time.Since(start))
			}
			res, err := c.Exec(ctx, "SELECT 1::int4 AS a, 2.5::numeric AS b, '{1}'::int[] AS c, 'x'::text AS d, now()::date AS e", ExecLimits{})
			if err != nil {
				t.Fatal(err)
			}
			var types []string
			for _, col := range res.Columns {
				types = append(types, col.Type)
			}
			if got := types; len(got) != 5 || got[0] != "int4" || got[1] != "numeric" || got[2] != "_int4" || got[3] != "text" || got[4] != "date" {
				t.Errorf("column types %v", got)
			}
		})
	}
}

// TestExecLostConnection: a statement whose session the server ends (PostgreSQL's
// 57P01 "terminating connection due to administrator command", MariaDB's 1927
// "Connection was killed") is ErrConnection, a fault, never an *SQLError that a judge
// would turn into the prediction's verdict; the copy is not reused. Here the statement
// ends its own session, as a hostile prediction can and as a server restart does.
func TestExecLostConnection(t *testing.T) {
	if testing.Short() {
		t.Skip("waiting out lost sessions is slow for -short; go test ./... runs it")
	}
	kill := map[string]string{
		"postgres": "SELECT pg_terminate_backend(pg_backend_pid())",
		"mysql":    "KILL CONNECTION_ID()",
	}
	for name, open := range backends(t) {
		sql, ok := kill[name]
		if !ok {
			continue // SQLite has no session to lose
		}
		t.Run(name, func(t *testing.T) {
			b := open(t)
			ctx := context.Background()
			tmpl, err := b.template(ctx, Setup{Name: "lost", Steps: uniqueSetup(t).Steps})
			if err != nil {
				t.Fatal(err)
			}
			dropTemplate(t, tmpl)
			c, err := tmpl.Copy(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Drop(ctx)
			_, err = c.Exec(ctx, sql, ExecLimits{Timeout: 10 * time.Second})
			var se *SQLError
			if !errors.Is(err, ErrConnection) || errors.As(err, &se) {
				t.Fatalf("err %v (%T), want ErrConnection and no SQLError", err, err)
			}
			if r, ok := c.(interface{ Reusable(context.Context) bool }); ok && r.Reusable(ctx) {
				t.Error("a copy whose session was lost is offered for reuse")
			}
		})
	}
}
