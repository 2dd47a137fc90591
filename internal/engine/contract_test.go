package engine_test

// One contract suite, run against every engine: SQLite always; PostgreSQL and MySQL
// when NL2SQLBENCH_PG_DSN / NL2SQLBENCH_MYSQL_DSN name a server (.ci/servers.sh starts
// both on loopback and prints those variables); DuckDB when NL2SQLBENCH_LIBDUCKDB names
// libduckdb.so (.ci/duckdb.sh fetches it), on a DuckDB file built from duckFixture. The same SQLite fixture is loaded into
// each server (internal/export), so every engine must give the same values, of the same
// Go types, and the same error categories.

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	_ "github.com/mattn/go-sqlite3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/export"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

const (
	pgDSNVar    = "NL2SQLBENCH_PG_DSN"
	mysqlDSNVar = "NL2SQLBENCH_MYSQL_DSN"
	contractDB  = "nl2sqlbench_contract"
)

// contractFixture: t holds ids 1..10 (enough for a slow ten-way cross join) with a real,
// a nullable text and a blob column.
var contractFixture = []string{
	`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score REAL, note TEXT, data BLOB)`,
	`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10)
	 INSERT INTO t SELECT x, 'name' || x, NULL, 'n' || x, NULL FROM c`,
	`UPDATE t SET name = 'alpha', score = 1.5, note = NULL, data = x'00ff' WHERE id = 1`,
	`UPDATE t SET name = 'beta', score = 2.5, data = x'' WHERE id = 2`,
	`CREATE TABLE k (a TEXT, b INTEGER, PRIMARY KEY (b, a))`,
	`INSERT INTO k VALUES ('x', 1), ('y', 1)`,
}

// contractTarget is one engine with the fixture loaded, and the db argument naming it.
type contractTarget struct {
	name string
	eng  engine.Engine
	db   string
}

func writeSQLite(tb testing.TB, path string, stmts ...string) {
	tb.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			tb.Fatalf("fixture %q: %v", s, err)
		}
	}
}

// serverDSN returns the DSN template in env var name, or skips the test.
func serverDSN(tb testing.TB, name string) string {
	tb.Helper()
	dsn := os.Getenv(name)
	if dsn == "" {
		tb.Skipf("%s not set: no server to test against (bash .ci/servers.sh starts one; see the README)", name)
	}
	return dsn
}

// loadInto loads the SQLite file src into schema db on the server of dsn (a template).
func loadInto(tb testing.TB, d export.Dialect, dsn, src, db string) {
	tb.Helper()
	driver, admin := "pgx", strings.ReplaceAll(dsn, engine.DBPlaceholder, db)
	if d == export.MySQL {
		driver, admin = "mysql", strings.ReplaceAll(dsn, engine.DBPlaceholder, "")
	}
	conn, err := sql.Open(driver, admin)
	if err != nil {
		tb.Fatalf("open %s server: %v", driver, err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := conn.PingContext(ctx); err != nil {
		tb.Fatalf("%s server named by the environment is not reachable: %v", driver, err)
	}
	if _, err := export.LoadSQLite(ctx, src, d, conn, db); err != nil {
		tb.Fatalf("load %s into %s: %v", src, driver, err)
	}
}

// contractTargets builds every available engine; server engines get the fixture loaded.
func contractTargets(t *testing.T) []contractTarget {
	t.Helper()
	src := filepath.Join(t.TempDir(), contractDB+".sqlite")
	writeSQLite(t, src, contractFixture...)
	targets := []contractTarget{{"sqlite", engine.NewSQLite(), src}}
	if dsn := os.Getenv(pgDSNVar); dsn != "" {
		loadInto(t, export.Postgres, dsn, src, contractDB)
		targets = append(targets, contractTarget{"postgres", engine.NewPostgres(dsn, 4), contractDB})
	} else {
		t.Logf("%s not set: PostgreSQL skipped (bash .ci/servers.sh starts a server)", pgDSNVar)
	}
	if lib := os.Getenv(engine.LibDuckDBEnv); lib != "" {
		targets = append(targets, duckTargets(t, lib)...)
	} else {
		t.Logf("%s not set: DuckDB skipped (export %s=\"$(bash .ci/duckdb.sh)\")", engine.LibDuckDBEnv, engine.LibDuckDBEnv)
	}
	if dsn := os.Getenv(mysqlDSNVar); dsn != "" {
		loadInto(t, export.MySQL, dsn, src, contractDB)
		targets = append(targets, contractTarget{"mysql", engine.NewMySQL(dsn, 4), contractDB})
	} else {
		t.Logf("%s not set: MySQL skipped (bash .ci/servers.sh starts a server)", mysqlDSNVar)
	}
	t.Cleanup(func() {
		for _, tg := range targets {
			if err := tg.eng.Close(); err != nil {
				t.Errorf("%s: Close: %v", tg.name, err)
			}
		}
	})
	return targets
}

func TestContract(t *testing.T) {
	for _, tg := range contractTargets(t) {
		t.Run(tg.name, func(t *testing.T) {
			t.Run("values", func(t *testing.T) { contractValues(t, tg) })
			t.Run("errors", func(t *testing.T) { contractErrors(t, tg) })
			t.Run("readonly", func(t *testing.T) { contractReadOnly(t, tg) })
			t.Run("limits", func(t *testing.T) { contractLimits(t, tg) })
			t.Run("concurrent", func(t *testing.T) { contractConcurrent(t, tg) })
		})
	}
}

func contractValues(t *testing.T, tg contractTarget) {
	lim := engine.Limits{Timeout: 10 * time.Second}
	tests := []struct {
		query string
		cols  []string
		rows  [][]any
	}{
		{"SELECT id, name FROM t WHERE id <= 2 ORDER BY id", []string{"id", "name"}, [][]any{{int64(1), "alpha"}, {int64(2), "beta"}}},
		{"SELECT score, note FROM t WHERE id = 1", []string{"score", "note"}, [][]any{{1.5, nil}}},
		{"SELECT data FROM t WHERE id IN (1, 2) ORDER BY id", []string{"data"}, [][]any{{[]byte{0, 255}}, {[]byte{}}}},
		{"SELECT data FROM t WHERE id = 3", []string{"data"}, [][]any{{nil}}},
		{"SELECT COUNT(*) AS n FROM t", []string{"n"}, [][]any{{int64(10)}}},
		{"SELECT SUM(id) AS s FROM t", []string{"s"}, [][]any{{int64(55)}}},
		{"SELECT AVG(score) AS a FROM t", []string{"a"}, [][]any{{2.0}}},
		{"SELECT MAX(score) AS m FROM t;", []string{"m"}, [][]any{{2.5}}}, // trailing semicolon
		{"SELECT name FROM t WHERE id > 100", []string{"name"}, nil},
		{"SELECT a, b FROM k ORDER BY a", []string{"a", "b"}, [][]any{{"x", int64(1)}, {"y", int64(1)}}},
		{"  -- comment\nWITH c AS (SELECT id FROM t WHERE id < 3) SELECT COUNT(*) AS n FROM c", []string{"n"}, [][]any{{int64(2)}}},
	}
	for _, tc := range tests {
		res, err := tg.eng.Query(context.Background(), tg.db, tc.query, lim)
		if err != nil {
			t.Errorf("%q: %v", tc.query, err)
			continue
		}
		if diff := cmp.Diff(tc.cols, res.Columns); diff != "" {
			t.Errorf("%q columns (-want +got):\n%s", tc.query, diff)
		}
		if diff := cmp.Diff(tc.rows, res.BoxedRows()); diff != "" {
			t.Errorf("%q rows (-want +got):\n%s", tc.query, diff)
		}
	}
}

func contractErrors(t *testing.T, tg contractTarget) {
	tests := []struct {
		query string
		want  record.ErrorCategory
	}{
		{"SELECT * FROM nope", record.NoSuchTable},
		{"SELECT nope FROM t", record.NoSuchColumn},
		{"SELECT nofunc(id) FROM t", record.NoSuchFunction},
		{"SELECT FROM WHERE", record.SyntaxError},
		{"SELECT id FROM t WHERE", record.SyntaxError},
		// A NUL byte is refused by every engine, as Python's sqlite3 refuses it.
		{"\x00", record.SyntaxError},
		{"\x00SELECT 1", record.SyntaxError},
		{"SELECT 1\x00; DROP TABLE t", record.SyntaxError},
	}
	for _, tc := range tests {
		_, err := tg.eng.Query(context.Background(), tg.db, tc.query, engine.Limits{Timeout: 10 * time.Second})
		if err == nil {
			t.Errorf("%q: no error", tc.query)
			continue
		}
		if got := judge.Categorize(err); got != tc.want {
			t.Errorf("%q: category %q, want %q (error %v)", tc.query, got, tc.want, err)
		}
	}
	if _, err := tg.eng.Query(context.Background(), tg.db, " -- nothing\n ;", engine.Limits{}); !errors.Is(err, engine.ErrEmptyQuery) {
		t.Errorf("empty query: %v, want ErrEmptyQuery", err)
	}
}

func contractReadOnly(t *testing.T, tg contractTarget) {
	ctx := context.Background()
	refused := []string{
		"DELETE FROM t",
		"UPDATE t SET name = 'x'",
		"INSERT INTO t (id, name) VALUES (99, 'x')",
		"CREATE TABLE z (a INTEGER)",
		"DROP TABLE t",
		"ALTER TABLE t ADD COLUMN z INTEGER",
	}
	for _, q := range refused {
		if _, err := tg.eng.Query(ctx, tg.db, q, engine.Limits{}); !errors.Is(err, engine.ErrNotReadOnly) {
			t.Errorf("%q: %v, want ErrNotReadOnly", q, err)
		}
	}
	for _, q := range []string{"SELECT 1; DELETE FROM t", "SELECT 1; DROP TABLE t"} {
		if _, err := tg.eng.Query(ctx, tg.db, q, engine.Limits{}); err == nil {
			t.Errorf("%q: no error, want the second statement refused", q)
		}
	}
	res, err := tg.eng.Query(ctx, tg.db, "SELECT COUNT(*), MIN(name) FROM t", engine.Limits{})
	if err != nil || !cmp.Equal(res.BoxedRows(), [][]any{{int64(10), "alpha"}}) {
		t.Errorf("table changed after refused writes: %v %v", res, err)
	}
}

// slowQuery counts a ten-way cross join of t (10^10 rows): no engine finishes it soon.
const slowQuery = "SELECT COUNT(*) FROM t a, t b, t c, t d, t e, t f, t g, t h, t i, t j"

func contractLimits(t *testing.T, tg contractTarget) {
	start := time.Now()
	_, err := tg.eng.Query(context.Background(), tg.db, slowQuery, engine.Limits{Timeout: 300 * time.Millisecond})
	if !errors.Is(err, engine.ErrTimeout) {
		t.Errorf("slow query with a timeout: %v, want ErrTimeout", err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("timeout of 300ms took %v", el)
	}
	if got := judge.Categorize(err); got != record.Timeout {
		t.Errorf("timeout categorised %q", got)
	}

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start = time.Now()
	_, err = tg.eng.Query(ctx, tg.db, slowQuery, engine.Limits{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled query: %v, want context.Canceled", err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("cancellation after 300ms took %v", el)
	}

	assertStopped(t, tg)

	if _, err := tg.eng.Query(context.Background(), tg.db, "SELECT id FROM t", engine.Limits{MaxRows: 5}); !errors.Is(err, engine.ErrRowLimit) {
		t.Errorf("10 rows with MaxRows 5: %v, want ErrRowLimit", err)
	}
	// The byte cap is enforced while rows are read, and categorised as row_limit.
	if _, err := tg.eng.Query(context.Background(), tg.db, "SELECT name, note FROM t", engine.Limits{MaxBytes: 100}); !errors.Is(err, engine.ErrByteLimit) || judge.Categorize(err) != record.RowLimit || !strings.Contains(err.Error(), "100 bytes") {
		t.Errorf("10 rows over 100 bytes: %v, want ErrByteLimit naming 100 bytes, category row_limit", err)
	}
	// A pooled connection used by a timed-out query must serve the next one normally.
	res, err := tg.eng.Query(context.Background(), tg.db, "SELECT COUNT(*) FROM t", engine.Limits{Timeout: 10 * time.Second})
	if err != nil || !cmp.Equal(res.BoxedRows(), [][]any{{int64(10)}}) {
		t.Errorf("query after a timeout: %v %v", res, err)
	}
}

func contractConcurrent(t *testing.T, tg contractTarget) {
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Go(func() {
			res, err := tg.eng.Query(context.Background(), tg.db, "SELECT id FROM t WHERE id <= 5", engine.Limits{Timeout: 10 * time.Second})
			if err == nil && res.NumRows() != 5 {
				err = errors.New("wrong row count")
			}
			if err != nil {
				errs <- err
			}
			_ = i
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent query: %v", err)
	}
}

// TestDemoOnServers loads the embedded demo's databases into each server and runs every
// demo gold query there and on SQLite: a query both engines run must give the same rows,
// up to row order and float rounding (summation order and MySQL's 4-digit division
// scale change the last digits). A query in SQLite's dialect may fail on a server; that
// is counted, not failed.
func TestDemoOnServers(t *testing.T) {
	servers := []struct {
		name, envVar string
		dialect      export.Dialect
		open         func(dsn string) engine.Engine
	}{
		{"postgres", pgDSNVar, export.Postgres, func(dsn string) engine.Engine { return engine.NewPostgres(dsn, 4) }},
		{"mysql", mysqlDSNVar, export.MySQL, func(dsn string) engine.Engine { return engine.NewMySQL(dsn, 4) }},
	}
	files, err := demo.Materialize(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ds, err := dataset.Load(context.Background(), "jsonl:"+files.Questions, dataset.Options{DBRoot: files.DBRoot})
	if err != nil {
		t.Fatal(err)
	}
	sqlite := engine.NewSQLite()
	defer sqlite.Close()
	for _, sv := range servers {
		t.Run(sv.name, func(t *testing.T) {
			dsn := serverDSN(t, sv.envVar)
			loaded := map[string]bool{}
			eng := sv.open(dsn)
			defer eng.Close()
			ctx := context.Background()
			lim := engine.Limits{Timeout: 10 * time.Second}
			same, serverErr := 0, 0
			for _, q := range ds.Questions {
				path, ok := ds.DBPath(q.DBID)
				if !ok {
					continue // the demo has questions on a missing database on purpose (skipped)
				}
				if sv.dialect == export.MySQL && strings.Contains(q.Gold[0], "||") {
					serverErr++ // MySQL reads || as OR: a dialect difference, not a loading one
					continue
				}
				if !loaded[q.DBID] {
					loadInto(t, sv.dialect, dsn, path, q.DBID)
					loaded[q.DBID] = true
				}
				want, err := sqlite.Query(ctx, path, q.Gold[0], lim)
				if err != nil {
					continue // the demo has gold that fails on purpose (gold_error)
				}
				got, err := eng.Query(ctx, q.DBID, q.Gold[0], lim)
				if err != nil {
					serverErr++
					t.Logf("%s: SQLite gold fails on %s (dialect): %v", q.ID, sv.name, err)
					continue
				}
				if !judge.BirdEqual(roughly(got), roughly(want)) {
					t.Errorf("%s: %s result differs from SQLite's\n  sql: %s\n  sqlite: %v\n  %s: %v", q.ID, sv.name, q.Gold[0], want.BoxedRows(), sv.name, got.BoxedRows())
					continue
				}
				same++
			}
			t.Logf("%s: %d/%d demo gold queries give SQLite's result, %d fail in this dialect", sv.name, same, len(ds.Questions), serverErr)
			if same < len(ds.Questions)/2 {
				t.Errorf("only %d/%d demo gold queries ran on %s", same, len(ds.Questions), sv.name)
			}
		})
	}
}

// roughly rounds every number (a Decimal too) to 4 decimal places (as float64), so results that differ
// only in the last digits of a float compare equal.
func roughly(r *engine.Result) *engine.Result {
	var rows [][]any
	for _, row := range r.BoxedRows() {
		nr := make([]any, len(row))
		for i, v := range row {
			switch x := v.(type) {
			case int64:
				nr[i] = float64(x)
			case float64:
				nr[i] = math.Round(x*1e4) / 1e4
			case engine.DecimalText: // an exact NUMERIC: rounded as the float nearest it
				f, err := strconv.ParseFloat(string(x), 64)
				if err != nil {
					panic(err)
				}
				nr[i] = math.Round(f*1e4) / 1e4
			default:
				nr[i] = v
			}
		}
		rows = append(rows, nr)
	}
	return engine.NewResult(r.Columns, rows)
}

// assertStopped checks that no server still runs slowQuery after the timeout and the
// cancellation: a statement left running holds its locks (a later DROP TABLE waits).
func assertStopped(t *testing.T, tg contractTarget) {
	t.Helper()
	var q string
	switch tg.name {
	case "postgres":
		q = "SELECT COUNT(*) FROM pg_stat_activity WHERE state = 'active' AND query = '" + slowQuery + "'"
	case "mysql":
		q = "SELECT COUNT(*) FROM information_schema.processlist WHERE info = '" + slowQuery + "'"
	default:
		return // SQLite runs in-process: sqlite3_interrupt stops it before Query returns
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		res, err := tg.eng.Query(context.Background(), tg.db, q, engine.Limits{Timeout: 5 * time.Second})
		if err != nil {
			t.Fatalf("list running statements: %v", err)
		}
		if cmp.Equal(res.BoxedRows(), [][]any{{int64(0)}}) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server still runs the timed-out or cancelled statement 5s later: %v", res.BoxedRows())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
