package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestValuesKeepStoredTypes(t *testing.T) {
	path := makeDB(t, "types.sqlite",
		`CREATE TABLE v (k INTEGER PRIMARY KEY, d DATE, dt DATETIME, ts TIMESTAMP, b BOOLEAN,
		   r REAL, i INTEGER, n TEXT, bl BLOB, tx TEXT)`,
		`INSERT INTO v VALUES (1, '2020-01-02', '2020-01-02 03:04:05', '2020-01-02T03:04:05Z', 1,
		   1.5, 42, NULL, x'00ff10', 'hello')`,
		// Not dates, not booleans: a driver that converts would turn these into zero times.
		`INSERT INTO v VALUES (2, 'not a date', 'yesterday', 1577934245, 0,
		   -0.25, -7, NULL, x'', CAST(x'fffe41' AS TEXT))`,
		`INSERT INTO v VALUES (3, 20200102, 2.5, '', 'true', 3, 9223372036854775807, 'x', NULL, '')`,
		`INSERT INTO v VALUES (4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
	)
	e := newEngine(t)
	res := mustQuery(t, e, path, `SELECT d, dt, ts, b, r, i, n, bl, tx FROM v ORDER BY k`, Limits{})
	want := NewResult(
		[]string{"d", "dt", "ts", "b", "r", "i", "n", "bl", "tx"},
		[][]any{
			{"2020-01-02", "2020-01-02 03:04:05", "2020-01-02T03:04:05Z", int64(1), 1.5, int64(42), nil, []byte{0, 0xff, 0x10}, "hello"},
			{"not a date", "yesterday", int64(1577934245), int64(0), -0.25, int64(-7), nil, []byte{}, "\xff\xfeA"},
			{int64(20200102), 2.5, "", "true", 3.0, int64(9223372036854775807), "x", nil, ""},
			{nil, nil, nil, nil, nil, nil, nil, nil, nil},
		},
	)
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}

	// Expressions have no declared type; aliases are kept as written.
	res = mustQuery(t, e, path, `SELECT 1 AS "My Col", 'a', 2.5, NULL, x'01', d || '' FROM v WHERE k = 2`, Limits{})
	want = NewResult(
		[]string{"My Col", "'a'", "2.5", "NULL", "x'01'", "d || ''"},
		[][]any{{int64(1), "a", 2.5, nil, []byte{1}, "not a date"}},
	)
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("expression result (-want +got):\n%s", diff)
	}

	// A query that returns no rows still has its columns and a non-nil result.
	res = mustQuery(t, e, path, `SELECT k, d FROM v WHERE 0`, Limits{})
	if res == nil || res.NumRows() != 0 || !cmp.Equal(res.Columns, []string{"k", "d"}) {
		t.Errorf("empty result = %+v", res)
	}
}

func TestBlobIsCopied(t *testing.T) {
	// The driver reuses its buffers; a Result must own its bytes.
	path := makeDB(t, "blobs.sqlite", `CREATE TABLE b (v BLOB)`,
		`INSERT INTO b VALUES (x'0102'), (x'0304'), (x'0506')`)
	res := mustQuery(t, newEngine(t), path, `SELECT v FROM b ORDER BY rowid`, Limits{})
	want := [][]any{{[]byte{1, 2}}, {[]byte{3, 4}}, {[]byte{5, 6}}}
	if diff := cmp.Diff(want, res.BoxedRows()); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

func TestWritesAreRefused(t *testing.T) {
	e := newEngine(t)
	other := filepath.Join(filepath.Dir(fixturePath), "attached.sqlite")
	stmts := []string{
		`INSERT INTO t VALUES (11, 'x')`,
		`INSERT INTO t SELECT id + 100, name FROM t`,
		`REPLACE INTO t VALUES (1, 'y')`,
		`UPDATE t SET name = 'z'`,
		`DELETE FROM t`,
		`WITH x AS (SELECT 1) DELETE FROM t`,
		`DROP TABLE t`,
		`DROP INDEX t_name`,
		`CREATE TABLE u (x)`,
		`CREATE TEMP TABLE u (x)`,
		`CREATE INDEX t_id ON t (id, name)`,
		`CREATE VIEW vw AS SELECT 1`,
		`ALTER TABLE t ADD COLUMN c INT`,
		`ATTACH '` + other + `' AS o`,
		`ATTACH 'file:` + other + `?mode=rwc' AS o`,
		`ATTACH ':memory:' AS m`,
		`DETACH main`,
		`BEGIN`,
		`BEGIN IMMEDIATE`,
		`SAVEPOINT s`,
		`COMMIT`,
		`ROLLBACK`,
		`PRAGMA writable_schema = 1`,
		`PRAGMA main.writable_schema = ON`,
		`PRAGMA writable_schema(1)`,
		`PRAGMA user_version = 5`,
		`PRAGMA journal_mode = WAL`,
		`PRAGMA query_only = 0`,
		`VACUUM`,
		`VACUUM INTO '` + other + `'`,
		`REINDEX`,
		`ANALYZE`,
		`SELECT load_extension('/nonexistent')`,
	}
	for _, q := range stmts {
		t.Run(q, func(t *testing.T) {
			_, err := e.Query(context.Background(), fixturePath, q, Limits{Timeout: 5 * time.Second})
			var dbErr *DBError
			if !errors.Is(err, ErrNotReadOnly) && !errors.As(err, &dbErr) {
				t.Fatalf("err = %v, want ErrNotReadOnly or a DBError", err)
			}
		})
	}
	// The engine still works and the data are intact; TestMain checks the bytes.
	res := mustQuery(t, e, fixturePath, `SELECT count(*), sum(id), max(name) FROM t`, Limits{})
	if diff := cmp.Diff([][]any{{int64(10), int64(55), "name9"}}, res.BoxedRows()); diff != "" {
		t.Errorf("fixture changed (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(other); !os.IsNotExist(err) {
		t.Errorf("a refused statement created %s", other)
	}
	// The refused settings did not reach the pooled connections either.
	for i := 0; i < 6; i++ {
		res := mustQuery(t, e, fixturePath, `PRAGMA query_only`, Limits{})
		if res.Value(0, 0) != int64(1) {
			t.Errorf("query_only = %v on a pooled connection, want 1", res.Value(0, 0))
		}
		res = mustQuery(t, e, fixturePath, `SELECT count(*) FROM pragma_database_list WHERE name NOT IN ('main', 'temp')`, Limits{})
		if res.Value(0, 0) != int64(0) {
			t.Errorf("%v databases attached on a pooled connection, want 0", res.Value(0, 0))
		}
	}
}

func TestReadingPragmasAllowed(t *testing.T) {
	e := newEngine(t)
	tests := []struct {
		query    string
		wantRows int
	}{
		{`PRAGMA table_info(t)`, 2},
		{`PRAGMA table_info("t")`, 2},
		{`PRAGMA main.table_xinfo('t')`, 2},
		{`PRAGMA index_list(t)`, 1},
		{`PRAGMA index_info(t_name)`, 1},
		{`PRAGMA foreign_key_list(t)`, 0},
		{`PRAGMA integrity_check`, 1},
		{`PRAGMA user_version`, 1},
		{`SELECT name FROM pragma_table_info('t')`, 2},
		{`EXPLAIN QUERY PLAN SELECT * FROM t WHERE name = 'x'`, 1},
	}
	for _, tc := range tests {
		res, err := e.Query(context.Background(), fixturePath, tc.query, Limits{})
		if err != nil {
			t.Errorf("Query(%q): %v", tc.query, err)
			continue
		}
		if res.NumRows() != tc.wantRows {
			t.Errorf("Query(%q) = %d rows, want %d", tc.query, res.NumRows(), tc.wantRows)
		}
	}
}

func TestMultipleStatements(t *testing.T) {
	e := newEngine(t)
	tests := []struct {
		query   string
		wantErr error // nil: must succeed and return one row
	}{
		{`SELECT 1; DROP TABLE t`, ErrMultipleStatements},
		{`SELECT 1; SELECT 2`, ErrMultipleStatements},
		{`SELECT 1;;; SELECT 2`, ErrMultipleStatements},
		{`SELECT 1; ';'`, ErrMultipleStatements},
		{`SELECT 1;`, nil},
		{`SELECT 1; -- c`, nil},
		{"SELECT 1 ;\n  ; /* trailing */ ;\n", ErrMultipleStatements}, // Python refuses empty extra statements too
		{"SELECT 1 ;\n  /* trailing */\n", nil},
		{`SELECT ';' AS x`, nil},
		{`SELECT 1 AS "a;b"`, nil},
		{`SELECT 1 AS [a;b]`, nil},
		{"SELECT 1 AS `a;b`", nil},
		{`SELECT 1 /* ; DROP TABLE t; */`, nil},
		{"SELECT 1 -- ; DROP TABLE t\n", nil},
		{`SELECT 'it''s; fine'`, nil},
		{``, ErrEmptyQuery},
		{"  \n\t", ErrEmptyQuery},
		{`;`, ErrEmptyQuery},
		{`-- nothing`, ErrEmptyQuery},
		{`/* nothing */ ;`, ErrEmptyQuery},
	}
	for _, tc := range tests {
		res, err := e.Query(context.Background(), fixturePath, tc.query, Limits{})
		if tc.wantErr != nil {
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("Query(%q) err = %v, want %v", tc.query, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Query(%q): %v", tc.query, err)
			continue
		}
		if res.NumRows() != 1 {
			t.Errorf("Query(%q) returned %d rows, want 1", tc.query, res.NumRows())
		}
	}
	// The second statement of a refused query never ran.
	res := mustQuery(t, e, fixturePath, `SELECT count(*) FROM t`, Limits{})
	if res.Value(0, 0) != int64(10) {
		t.Errorf("fixture has %v rows, want 10", res.Value(0, 0))
	}
}

func TestDBErrors(t *testing.T) {
	e := newEngine(t)
	tests := []struct {
		query, wantMsg string
	}{
		{`SELECT nope FROM t`, "no such column: nope"},
		{`SELECT * FROM nope`, "no such table: nope"},
		{`SELECT nope(1)`, "no such function: nope"},
		{`SELEC 1`, "syntax error"},
		{`SELECT 'unterminated`, "unrecognized token"},
	}
	for _, tc := range tests {
		_, err := e.Query(context.Background(), fixturePath, tc.query, Limits{})
		var dbErr *DBError
		if !errors.As(err, &dbErr) {
			t.Errorf("Query(%q) err = %v (%T), want *DBError", tc.query, err, err)
			continue
		}
		if !strings.Contains(dbErr.Message, tc.wantMsg) {
			t.Errorf("Query(%q) message %q, want it to contain %q", tc.query, dbErr.Message, tc.wantMsg)
		}
	}
}

const endless = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) `

func TestTimeoutInterrupts(t *testing.T) {
	e := newEngine(t)
	e.MaxConnsPerDB = 1 // every query below reuses the interrupted connection
	for _, q := range []string{
		endless + `SELECT count(*) FROM c`,      // never yields a row
		endless + `SELECT x FROM c WHERE x < 0`, // never yields a row either
		endless + `SELECT x FROM c`,             // yields rows forever
	} {
		start := time.Now()
		_, err := e.Query(context.Background(), fixturePath, q, Limits{Timeout: 200 * time.Millisecond})
		took := time.Since(start)
		if !errors.Is(err, ErrTimeout) {
			t.Errorf("Query(%q) err = %v, want ErrTimeout", q, err)
		}
		if took < 150*time.Millisecond || took > time.Second {
			t.Errorf("Query(%q) took %v, want about 200ms", q, took)
		}
		// The same engine, on the same connection, still answers.
		for i := 0; i < 3; i++ {
			res := mustQuery(t, e, fixturePath, `SELECT count(*) FROM t`, Limits{Timeout: time.Second})
			if res.Value(0, 0) != int64(10) {
				t.Errorf("after timeout: count = %v, want 10", res.Value(0, 0))
			}
		}
	}
}

func TestParentCancel(t *testing.T) {
	e := newEngine(t)
	e.MaxConnsPerDB = 1
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := e.Query(ctx, fixturePath, endless+`SELECT count(*) FROM c`, Limits{Timeout: 10 * time.Second})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if errors.Is(err, ErrTimeout) {
		t.Error("a cancelled parent must not be reported as a timeout")
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("cancel took %v to stop the query", took)
	}
	// A parent already cancelled refuses at once.
	if _, err := e.Query(ctx, fixturePath, `SELECT 1`, Limits{}); !errors.Is(err, context.Canceled) {
		t.Errorf("already-cancelled ctx: err = %v, want context.Canceled", err)
	}
	// A parent deadline is the caller's, not the engine's timeout.
	dctx, dcancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer dcancel()
	if _, err := e.Query(dctx, fixturePath, endless+`SELECT count(*) FROM c`, Limits{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("parent deadline: err = %v, want context.DeadlineExceeded", err)
	}
	res := mustQuery(t, e, fixturePath, `SELECT 42`, Limits{})
	if res.Value(0, 0) != int64(42) {
		t.Errorf("after cancel: got %v", res.BoxedRows())
	}
}

func TestMaxRows(t *testing.T) {
	e := newEngine(t)
	tests := []struct {
		query   string
		maxRows int
		want    int // rows; -1 means ErrRowLimit
	}{
		{`SELECT id FROM t`, 0, 10},
		{`SELECT id FROM t`, 11, 10},
		{`SELECT id FROM t`, 10, 10},
		{`SELECT id FROM t`, 9, -1},
		{`SELECT id FROM t`, 1, -1},
		{`SELECT id FROM t WHERE 0`, 1, 0},
		{`SELECT count(*) FROM t`, 1, 1},
		{endless + `SELECT x FROM c`, 1000, -1}, // stops without a timeout
	}
	for _, tc := range tests {
		res, err := e.Query(context.Background(), fixturePath, tc.query, Limits{MaxRows: tc.maxRows})
		if tc.want < 0 {
			if !errors.Is(err, ErrRowLimit) {
				t.Errorf("Query(%q, MaxRows %d) err = %v, want ErrRowLimit", tc.query, tc.maxRows, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Query(%q, MaxRows %d): %v", tc.query, tc.maxRows, err)
			continue
		}
		if res.NumRows() != tc.want {
			t.Errorf("Query(%q, MaxRows %d) = %d rows, want %d", tc.query, tc.maxRows, res.NumRows(), tc.want)
		}
	}
}

func TestDatabasePaths(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.sqlite")
	for _, p := range []string{missing, dir, ""} {
		if _, err := e.Query(ctx, p, `SELECT 1`, Limits{}); !errors.Is(err, ErrNoDatabase) {
			t.Errorf("Query on %q: err = %v, want ErrNoDatabase", p, err)
		}
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("querying a missing database created it")
	}

	// Names that URIs reserve, and names that differ only by how they would be escaped,
	// each reach their own file.
	names := []string{"with space.sqlite", "q?mark.sqlite", "hash#tag.sqlite", "pct%3f.sqlite", "pct%25.sqlite", "all ?#%.sqlite"}
	sub := filepath.Join(t.TempDir(), "dir with space")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if err := createDB(filepath.Join(sub, n), `CREATE TABLE who (name TEXT)`, `INSERT INTO who VALUES ('`+n+`')`); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range names {
		res, err := e.Query(ctx, filepath.Join(sub, n), `SELECT name FROM who`, Limits{})
		if err != nil {
			t.Errorf("Query on %q: %v", n, err)
			continue
		}
		if diff := cmp.Diff([][]any{{n}}, res.BoxedRows()); diff != "" {
			t.Errorf("Query on %q reached another file (-want +got):\n%s", n, diff)
		}
	}
	ents, err := os.ReadDir(sub)
	if err != nil || len(ents) != len(names) {
		t.Errorf("directory holds %d files, want %d (err %v)", len(ents), len(names), err)
	}
}

func TestNotADatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "junk.sqlite")
	if err := os.WriteFile(path, []byte(strings.Repeat("not sqlite ", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := newEngine(t).Query(context.Background(), path, `SELECT 1 FROM sqlite_master`, Limits{})
	// A fault, not a query's error: no verdict means anything on it (TestSQLiteDamagedIsFault).
	var dbErr *DBError
	if !errors.Is(err, ErrInfrastructure) || errors.As(err, &dbErr) {
		t.Errorf("err = %v (%T), want an infrastructure fault", err, err)
	}
}

func TestConcurrentQueries(t *testing.T) {
	e := newEngine(t)
	e.MaxConnsPerDB = 2 // fewer connections than goroutines: they must wait their turn
	dbs := []struct {
		path string
		sum  int64
	}{
		{makeDB(t, "a.sqlite", `CREATE TABLE n (v INTEGER)`,
			`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100) INSERT INTO n SELECT x FROM c`), 5050},
		{makeDB(t, "b.sqlite", `CREATE TABLE n (v INTEGER)`,
			`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200) INSERT INTO n SELECT x FROM c`), 20100},
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8*50)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				db := dbs[(g+i)%2]
				res, err := e.Query(context.Background(), db.path, `SELECT sum(v), count(*) FROM n`, Limits{Timeout: 5 * time.Second, MaxRows: 10})
				if err != nil {
					errs <- err
					continue
				}
				if res.Value(0, 0) != db.sum {
					errs <- errors.New("wrong sum from " + db.path)
				}
				if i%10 == 0 { // some timeouts mixed in, to exercise interrupts under load
					_, err := e.Query(context.Background(), db.path, endless+`SELECT count(*) FROM c`, Limits{Timeout: 20 * time.Millisecond})
					if !errors.Is(err, ErrTimeout) {
						errs <- err
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestCloseAndZeroValue(t *testing.T) {
	var e SQLite // the zero value must work too
	res, err := e.Query(context.Background(), fixturePath, `SELECT name FROM t WHERE id = 3`, Limits{})
	if err != nil {
		t.Fatalf("zero-value engine: %v", err)
	}
	if diff := cmp.Diff([][]any{{"name3"}}, res.BoxedRows()); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if err := e.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}
