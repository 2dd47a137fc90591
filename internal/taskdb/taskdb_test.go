package taskdb

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// templater is what both backends offer a test.
type templater interface {
	template(ctx context.Context, s Setup) (copier, error)
	Sweep(ctx context.Context) ([]string, error)
	// plant makes a copy-like leftover owned by o, as a killed run leaves it.
	plant(tb testing.TB, o owner) string
	exists(tb testing.TB, name string) bool
}

type copier interface {
	Copy(ctx context.Context) (Copy, error)
}

// pgBackend connects to the server of NL2SQLBENCH_PG_DSN or skips.
func pgBackend(tb testing.TB) *pgT {
	tb.Helper()
	dsn := os.Getenv("NL2SQLBENCH_PG_DSN")
	if dsn == "" {
		tb.Skip("skipping: NL2SQLBENCH_PG_DSN not set (eval \"$(bash .ci/servers.sh)\" starts a server)")
	}
	ctx := context.Background()
	p, err := OpenPostgres(ctx, dsn)
	if errors.Is(err, ErrNoCreateDB) {
		tb.Skip("skipping: the NL2SQLBENCH_PG_DSN role lacks CREATEDB (.ci/servers.sh grants it)")
	}
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { p.Close() })
	return &pgT{p}
}

type pgT struct{ *Postgres }

func (p *pgT) template(ctx context.Context, s Setup) (copier, error) { return p.Template(ctx, s) }

func (p *pgT) plant(tb testing.TB, o owner) string {
	name := pgCopyPrefix + o.tag() + "_1"
	if err := p.adminExec(context.Background(), `CREATE DATABASE "`+name+`"`); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = p.dropDatabase(context.Background(), name) })
	return name
}

func (p *pgT) exists(tb testing.TB, name string) bool {
	ok, err := p.Postgres.exists(context.Background(), name)
	if err != nil {
		tb.Fatal(err)
	}
	return ok
}

func sqliteBackend(tb testing.TB) *sqliteT {
	s, err := OpenSQLite(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	return &sqliteT{s}
}

type sqliteT struct{ *SQLite }

func (s *sqliteT) template(ctx context.Context, setup Setup) (copier, error) {
	return s.Template(ctx, setup)
}

func (s *sqliteT) plant(tb testing.TB, o owner) string {
	p := filepath.Join(s.dir, "nl2sb-c-"+strings.ReplaceAll(o.tag(), "_", "-")+"-1.sqlite")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

func (s *sqliteT) exists(_ testing.TB, name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// uniqueSetup is a small database; its name makes the template new to this test run.
func uniqueSetup(tb testing.TB) Setup {
	return Setup{Name: "tdb", Steps: []Step{
		{Source: "schema.sql", Script: true, SQL: "CREATE TABLE t (id integer PRIMARY KEY, name text, score numeric(6,2));\n" +
			"CREATE TABLE u (k text);\n-- " + tb.Name() + time.Now().Format(time.RFC3339Nano) + "\n"},
		{Source: "t.csv:1", SQL: "INSERT INTO t VALUES (1, 'a', 1.50)"},
		{Source: "t.csv:2", SQL: "INSERT INTO t VALUES (2, 'b', NULL)"},
		{Source: "t.csv:3", SQL: "INSERT INTO t VALUES (3, 'c;d', 2.25)"},
		{Source: "u.csv:1", SQL: "INSERT INTO u VALUES ('x')"},
	}}
}

func backends(t *testing.T) map[string]func(testing.TB) templater {
	return map[string]func(testing.TB) templater{
		"sqlite":   func(tb testing.TB) templater { return sqliteBackend(tb) },
		"postgres": func(tb testing.TB) templater { return pgBackend(tb) },
		"mysql":    func(tb testing.TB) templater { return myBackend(tb) },
	}
}

func checksum(tb testing.TB, tmpl copier) map[string]string {
	tb.Helper()
	ctx := context.Background()
	c, err := tmpl.Copy(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Drop(ctx)
	sums, err := c.Checksum(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	return sums
}

// TestTemplateNeverWritten: tasks that insert, update, delete and drop on their copies
// leave the template's every table as it was, and each copy starts from the template.
func TestTemplateNeverWritten(t *testing.T) {
	if testing.Short() {
		t.Skip("every engine's template is slow for -short; go test ./... runs it")
	}
	t.Parallel() // waits on the servers' CREATE DATABASE (issue 44)
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b := open(t)
			ctx := context.Background()
			tmpl, err := b.template(ctx, uniqueSetup(t))
			if err != nil {
				t.Fatal(err)
			}
			dropTemplate(t, tmpl)
			before := checksum(t, tmpl)
			if len(before) != 3 {
				t.Fatalf("checksum has %d entries, want 3 (t, u, schema): %v", len(before), before)
			}
			// Two tasks, so that each starts from the template: copies cost a second each
			// on a server that syncs to disk.
			tasks := []string{
				"INSERT INTO t VALUES (4, 'd', 3); UPDATE t SET name = 'z' WHERE id = 1",
				"DELETE FROM t WHERE id > 1; DROP TABLE u; ALTER TABLE t ADD COLUMN extra text",
			}
			for _, task := range tasks {
				c, err := tmpl.Copy(ctx)
				if err != nil {
					t.Fatal(err)
				}
				res, err := c.Exec(ctx, "SELECT count(*) FROM t", ExecLimits{Timeout: 5 * time.Second})
				if err != nil || len(res.Rows) != 1 || res.Rows[0][0] == nil || toText(res.Rows[0][0]) != "3" {
					t.Fatalf("fresh copy before %q: %v %+v", task, err, res)
				}
				if _, err := c.Exec(ctx, task, ExecLimits{Timeout: 5 * time.Second}); err != nil {
					t.Fatalf("%s: %v", task, err)
				}
				after, err := c.Checksum(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if cmp.Equal(after, before) {
					t.Errorf("%s: the copy's checksum did not change", task)
				}
				if err := c.Drop(ctx); err != nil {
					t.Fatal(err)
				}
				if b.exists(t, c.Name()) {
					t.Errorf("%s: copy %s still there after Drop", task, c.Name())
				}
			}
			if diff := cmp.Diff(before, checksum(t, tmpl)); diff != "" {
				t.Errorf("template changed (-before +after):\n%s", diff)
			}
		})
	}
}

func toText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	}
	return "?"
}

// TestSweep drops a leftover whose owner is gone (its process id now has another start
// time) and keeps one whose owner runs (this test).
func TestSweep(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			b := open(t)
			me := self()
			dead := owner{Host: me.Host, PID: me.PID, Start: "1"} // this pid, but started at another time
			if me.Start == "" {
				t.Skip("skipping: no /proc to read process start times")
			}
			other := owner{Host: "abcdef", PID: 1, Start: "1"} // another host: never ours to judge
			deadName, liveName, otherName := b.plant(t, dead), b.plant(t, owner{Host: me.Host, PID: me.PID, Start: me.Start}), b.plant(t, other)
			dropped, err := b.Sweep(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if !contains(dropped, deadName) || b.exists(t, deadName) {
				t.Errorf("leftover of a dead owner %s not dropped (dropped %v)", deadName, dropped)
			}
			if contains(dropped, liveName) || !b.exists(t, liveName) {
				t.Errorf("copy of a live owner %s dropped", liveName)
			}
			if contains(dropped, otherName) || !b.exists(t, otherName) {
				t.Errorf("copy of another host %s dropped", otherName)
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestDropCopiesAfterLostConnection: when a cancelled run's statement cost the
// maintenance connection (pgx closes a connection whose cancel is not answered in time),
// a copy is still dropped with a fresh context, and DropCopies drops the copies never
// dropped, so an interrupted run in a process that goes on leaves none.
func TestDropCopiesAfterLostConnection(t *testing.T) {
	p := pgBackend(t)
	ctx := context.Background()
	tmpl, err := p.Template(ctx, uniqueSetup(t))
	if err != nil {
		t.Fatal(err)
	}
	dropTemplate(t, tmpl) // its name is new each run: kept, one was left on the server per run
	a, err := tmpl.Copy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := tmpl.Copy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lose := func() {
		p.mu.Lock()
		p.admin.Close(ctx)
		p.mu.Unlock()
	}
	lose()
	if err := a.Drop(ctx); err != nil {
		t.Fatalf("drop after the maintenance connection was lost: %v", err)
	}
	lose()
	dropped, err := p.DropCopies(ctx)
	if err != nil || !contains(dropped, b.Name()) || contains(dropped, a.Name()) {
		t.Errorf("DropCopies = %v, %v; want only %s", dropped, err, b.Name())
	}
	if left, err := p.Mine(ctx); err != nil || len(left) > 0 {
		t.Errorf("copies left: %v %v", left, err)
	}
	// A copy asked for on a context already ended is not made.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := tmpl.Copy(cctx); !errors.Is(err, context.Canceled) {
		t.Errorf("copy on a cancelled context: %v", err)
	}
	if dropped, err := p.DropCopies(ctx); err != nil || len(dropped) > 0 {
		t.Errorf("DropCopies after a refused copy = %v, %v; want none", dropped, err)
	}
}

// TestTemplateNotWritableFromCopy: a task's SQL that names the template (a hostile
// prediction or preprocess_sql) cannot change it. Before, on MySQL the role's UPDATE
// nl2sb_t_....t went through (and DROP DATABASE would have), and on SQLite ATTACH of the
// template's file did, for every later task and run; PostgreSQL has no cross-database
// reference.
func TestTemplateNotWritableFromCopy(t *testing.T) {
	if testing.Short() {
		t.Skip("one copy per attack is slow for -short; go test ./... runs it")
	}
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			b := open(t)
			ctx := context.Background()
			tmpl, err := b.template(ctx, uniqueSetup(t))
			if err != nil {
				t.Fatal(err)
			}
			dropTemplate(t, tmpl)
			before := checksum(t, tmpl)
			var attacks []string
			switch tt := tmpl.(type) {
			case *SQLiteTemplate:
				attacks = []string{"ATTACH DATABASE '" + tt.Path() + "' AS tm; UPDATE tm.t SET name = 'pwned'"}
			case *PGTemplate:
				attacks = []string{`UPDATE "` + tt.name + `".public.t SET name = 'pwned'`}
			case *MyTemplate:
				attacks = []string{"UPDATE " + myIdent(tt.name) + ".t SET name = 'pwned'", "DROP TABLE " + myIdent(tt.name) + ".u", "DROP DATABASE " + myIdent(tt.name)}
			}
			c, err := tmpl.Copy(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Drop(ctx)
			for _, q := range attacks {
				if _, err := c.Exec(ctx, q, ExecLimits{Timeout: time.Second}); err == nil {
					t.Errorf("%s: ran", q)
				}
			}
			if after := checksum(t, tmpl); !maps.Equal(before, after) {
				t.Errorf("the template changed:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}
