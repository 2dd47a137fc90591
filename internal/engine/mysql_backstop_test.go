package engine

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMySQLBackstopWithoutKill: the server's own statement limit (max_statement_time on
// MariaDB, max_execution_time on MySQL) stops a statement whose KILL is lost (the test
// suppresses it). Last round a runaway ran 890 s on MariaDB after its KILL missed: its
// query had no timeout, only a context, so no limit was set. A statement with a
// context deadline is now limited to the deadline and killGrace; one with a timeout, to
// it. Each is looked for on the server after that time and must be gone.
func TestMySQLBackstopWithoutKill(t *testing.T) {
	t.Parallel()
	dsn := os.Getenv("NL2SQLBENCH_MYSQL_DSN")
	if dsn == "" {
		t.Skip("NL2SQLBENCH_MYSQL_DSN not set: no MySQL/MariaDB server to test on")
	}
	if testing.Short() {
		t.Skip("runs statements for seconds on the server")
	}
	for _, tc := range []struct {
		name    string
		timeout time.Duration // the statement's limit
		cancel  time.Duration // when its context ends
		dead    bool          // by a deadline (else a cancel)
	}{
		{"deadline, no timeout", 0, 500 * time.Millisecond, true},
		{"cancel, timeout", 1500 * time.Millisecond, 300 * time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := NewMySQL(dsn, 1)
			defer e.Close()
			e.d.(*mysqlDialect).noKill = true
			marker := fmt.Sprintf("backstop_%d", time.Now().UnixNano())
			// CPU-bound for minutes: a dropped connection alone does not stop it.
			slow := "SELECT BENCHMARK(2000000000, MD5('" + marker + "'))"
			t.Cleanup(func() { killMarkedStatements(dsn, marker) })
			ctx, cancel := context.WithCancel(context.Background())
			if tc.dead {
				ctx, cancel = context.WithTimeout(context.Background(), tc.cancel)
			} else {
				time.AfterFunc(tc.cancel, cancel)
			}
			defer cancel()
			start := time.Now()
			if _, err := e.Query(ctx, "information_schema", slow, Limits{Timeout: tc.timeout}); err == nil {
				t.Fatal("the statement finished")
			}
			// The limit, then a second for the server to notice.
			stop := max(tc.timeout, tc.cancel+killGrace) + time.Second
			if tc.timeout > 0 {
				stop = min(stop, tc.timeout+time.Second)
			}
			time.Sleep(time.Until(start.Add(stop)))
			if n := countMarked(t, dsn, marker); n != 0 {
				t.Errorf("%d statement(s) still run on the server %v after the start, their KILL suppressed: no backstop", n, time.Since(start).Round(time.Millisecond))
			}
		})
	}
}

func mysqlAdmin(dsn string) (*sql.DB, error) {
	return sql.Open("mysql", strings.ReplaceAll(dsn, DBPlaceholder, "information_schema"))
}

func countMarked(t *testing.T, dsn, marker string) int {
	t.Helper()
	c, err := mysqlAdmin(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var n int
	if err := c.QueryRow("SELECT COUNT(*) FROM information_schema.processlist WHERE info LIKE ? AND info NOT LIKE '%processlist%'", "%"+marker+"%").Scan(&n); err != nil {
		t.Fatalf("list running statements: %v", err)
	}
	return n
}

// killMarkedStatements kills every statement on the server whose text holds marker.
func killMarkedStatements(dsn, marker string) {
	c, err := mysqlAdmin(dsn)
	if err != nil {
		return
	}
	defer c.Close()
	rows, err := c.Query("SELECT id FROM information_schema.processlist WHERE info LIKE ? AND info NOT LIKE '%processlist%'", "%"+marker+"%")
	if err != nil {
		return
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if rows.Scan(&id) == nil {
			ids = append(ids, id)
		}
	}
	rows.Close()
	for _, id := range ids {
		c.Exec(fmt.Sprintf("KILL QUERY %d", id))
	}
}
