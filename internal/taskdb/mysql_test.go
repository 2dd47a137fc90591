package taskdb

import (
	"context"
	"os"
	"testing"
	"time"
)

// myBackend connects to the server of NL2SQLBENCH_MYSQL_DSN or skips.
func myBackend(tb testing.TB) *myT {
	tb.Helper()
	dsn := os.Getenv("NL2SQLBENCH_MYSQL_DSN")
	if dsn == "" {
		tb.Skip("skipping: NL2SQLBENCH_MYSQL_DSN not set (eval \"$(bash .ci/servers.sh)\" starts a server)")
	}
	m, err := OpenMySQL(context.Background(), dsn)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { m.Close() })
	return &myT{m}
}

type myT struct{ *MySQL }

func (m *myT) template(ctx context.Context, s Setup) (copier, error) { return m.Template(ctx, s) }

func (m *myT) plant(tb testing.TB, o owner) string {
	name := myCopyPrefix + o.tag() + "_1"
	if err := m.exec(context.Background(), "CREATE DATABASE "+myIdent(name)); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = m.dropDatabase(context.Background(), name) })
	return name
}

func (m *myT) exists(tb testing.TB, name string) bool {
	got, err := m.schemas(context.Background(), name)
	if err != nil {
		tb.Fatal(err)
	}
	return contains(got, name)
}

// dropTemplate drops a server template when the test ends (its name is the test's own).
func dropTemplate(tb testing.TB, tmpl copier) {
	switch t := tmpl.(type) {
	case *PGTemplate:
		tb.Cleanup(func() { _ = t.p.dropDatabase(context.Background(), t.name) })
	case *MyTemplate:
		tb.Cleanup(func() {
			t.m.mu.Lock()
			for _, l := range t.m.locks { // our READ lock would keep the DROP waiting
				_ = l.Close()
			}
			t.m.locks = nil
			t.m.mu.Unlock()
			_ = t.m.exec(context.Background(), "DROP DATABASE IF EXISTS "+myIdent(t.name))
		})
	}
}

// TestMySQLCopyKeepsKeys: a copy has the template's tables exactly as SHOW CREATE TABLE
// shows them (keys, foreign keys, AUTO_INCREMENT), its foreign keys are enforced, and a
// generated column is computed again rather than copied.
func TestMySQLCopyKeepsKeys(t *testing.T) {
	t.Parallel()
	m := myBackend(t)
	ctx := context.Background()
	s := Setup{Name: "mykeys", Steps: []Step{
		{Source: "pre.sql", Script: true, SQL: "SET FOREIGN_KEY_CHECKS = 0"},
		{Source: "schema.sql", Script: true, SQL: "CREATE TABLE c (id int PRIMARY KEY AUTO_INCREMENT, p int, twice int AS (id * 2), " +
			"KEY kp (p), CONSTRAINT fk_p FOREIGN KEY (p) REFERENCES p (id)); CREATE TABLE p (id int PRIMARY KEY); -- " + t.Name() + time.Now().Format(time.RFC3339Nano)},
		{Source: "c.csv:1", SQL: "INSERT INTO c (id, p) VALUES (1, 10)"},
		{Source: "p.csv:1", SQL: "INSERT INTO p VALUES (10)"},
		{Source: "post.sql", Script: true, SQL: "SET FOREIGN_KEY_CHECKS = 1"},
	}}
	tmpl, err := m.Template(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	dropTemplate(t, tmpl)
	c, err := tmpl.Copy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Drop(ctx)
	show := func(db string) string {
		var n, ddl string
		if err := m.admin.QueryRowContext(ctx, "SHOW CREATE TABLE "+myIdent(db)+".c").Scan(&n, &ddl); err != nil {
			t.Fatal(err)
		}
		return ddl
	}
	if a, b := show(tmpl.Name()), show(c.Name()); a != b {
		t.Errorf("copy's table differs:\n%s\ntemplate's:\n%s", b, a)
	}
	if _, err := c.Exec(ctx, "INSERT INTO c (id, p) VALUES (50, 99)", ExecLimits{}); err == nil {
		t.Error("a row breaking the foreign key was accepted on the copy")
	}
	res, err := c.Exec(ctx, "INSERT INTO c (p) VALUES (10); SELECT id, twice FROM c ORDER BY id", ExecLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 2 || toText(res.Rows[1][0]) != "2" || toText(res.Rows[1][1]) != "4" {
		t.Errorf("rows after an insert: %v (want the next id 2, twice 4)", res.Rows)
	}
}

// TestMySQLReusable: a copy on which only SELECTs (and SHOW, SET) ran may serve another
// task, reading as the template; one on which anything else ran, an UPDATE that matched
// nothing or an INSERT that failed included, may not.
func TestMySQLReusable(t *testing.T) {
	t.Parallel()
	m := myBackend(t)
	ctx := context.Background()
	tmpl, err := m.Template(ctx, uniqueSetup(t))
	if err != nil {
		t.Fatal(err)
	}
	dropTemplate(t, tmpl)
	cases := []struct {
		sqls []string
		want bool
	}{
		{nil, true},
		{[]string{"SELECT * FROM t", "SHOW TABLES; SELECT COUNT(*) FROM u", "SET @x = 1; SELECT @x"}, true},
		{[]string{"SELECT * FROM t", "UPDATE t SET name = 'q' WHERE id = 99"}, false},
		{[]string{"INSERT INTO t VALUES (1, 'dup', 0)"}, false},
		{[]string{"CREATE TEMPORARY TABLE tmp (a int)"}, false},
	}
	for _, tc := range cases {
		c, err := tmpl.Copy(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range tc.sqls {
			_, _ = c.Exec(ctx, q, ExecLimits{})
		}
		if got := c.(Reusable).Reusable(ctx); got != tc.want {
			t.Errorf("%q: reusable %v, want %v", tc.sqls, got, tc.want)
		}
		if tc.want {
			res, err := c.Exec(ctx, "SELECT COUNT(*) FROM t", ExecLimits{})
			if err != nil || toText(res.Rows[0][0]) != "3" {
				t.Errorf("%q: reused copy: %v %v", tc.sqls, err, res)
			}
		}
		if err := c.Drop(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMySQLCancelStopsStatement: a task statement whose context is cancelled no longer
// runs on the server when Exec returns, even an UPDATE with no timeout (MySQL's
// max_execution_time does not bound it, and a timeout of 0 sets no limit on MariaDB).
// Before, the KILL went from a goroutine Exec did not wait for: the driver drops its
// connection the moment the context ends, so Exec returned with the UPDATE still running
// (and, when the statement returned before that goroutine started, no KILL was sent).
func TestMySQLCancelStopsStatement(t *testing.T) {
	t.Parallel()
	m := myBackend(t)
	bg := context.Background()
	tmpl, err := m.template(bg, Setup{Name: "cancel", Steps: uniqueSetup(t).Steps})
	if err != nil {
		t.Fatal(err)
	}
	dropTemplate(t, tmpl)
	for i := 0; i < 3; i++ {
		c, err := tmpl.Copy(bg)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(bg)
		time.AfterFunc(200*time.Millisecond, cancel)
		// 10 s a row, three rows: the statement outlives the test unless it is killed.
		_, err = c.Exec(ctx, "UPDATE t SET name = 'z' WHERE SLEEP(10) = 0 AND id > 0", ExecLimits{})
		cancel()
		if err == nil {
			t.Fatal("a cancelled UPDATE returned no error")
		}
		var n int
		if err := m.admin.QueryRowContext(bg, "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'UPDATE t SET name = _z_ WHERE SLEEP%'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("try %d: the cancelled UPDATE still runs on the server when Exec has returned (%v)", i, err)
		}
		_ = c.Drop(bg)
	}
}
