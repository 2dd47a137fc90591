package engine_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// newDuck builds a DuckDB file from stmts in a fresh directory and an engine on it,
// running statements in worker processes when iso (duckdb_worker.go).
func newDuck(tb testing.TB, iso bool, stmts ...string) (*engine.DuckDB, string) {
	tb.Helper()
	lib := testutil.LibDuckDB(tb)
	path := filepath.Join(tb.TempDir(), "db.duckdb")
	if err := engine.CreateDuckDB(lib, path, stmts...); err != nil {
		tb.Fatal(err)
	}
	eng, err := engine.NewDuckDB(engine.DuckDBOptions{Lib: lib, Isolate: iso})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { eng.Close() })
	return eng, path
}

// bothDuckModes runs f in-process and, where supported, with worker processes: the
// engine's behaviour must not depend on where a statement runs.
func bothDuckModes(t *testing.T, f func(t *testing.T, iso bool)) {
	t.Run("in-process", func(t *testing.T) { f(t, false) })
	if engine.DuckDBIsolationSupported {
		t.Run("isolated", func(t *testing.T) { f(t, true) })
	}
}

// TestDuckDBValues holds the type mapping documented in duckdb_values.go.
func TestDuckDBValues(t *testing.T) { bothDuckModes(t, testDuckDBValues) }

func testDuckDBValues(t *testing.T, iso bool) {
	eng, db := newDuck(t, iso,
		`CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')`,
		`CREATE TABLE v (m mood, d DECIMAL(10, 2), big DECIMAL(30, 3))`,
		`INSERT INTO v VALUES ('happy', 55.00, -123456789012345678901.5), (NULL, -0.05, 0)`)
	tests := []struct {
		query string
		want  []any
	}{
		{"SELECT true, false, NULL::BOOLEAN", []any{int64(1), int64(0), nil}},
		{"SELECT 1::TINYINT, -2::SMALLINT, 3::INTEGER, -4::BIGINT, 255::UTINYINT, 65535::USMALLINT, 4294967295::UINTEGER", []any{int64(1), int64(-2), int64(3), int64(-4), int64(255), int64(65535), int64(4294967295)}},
		{"SELECT 9223372036854775807::UBIGINT, 18446744073709551615::UBIGINT", []any{int64(9223372036854775807), 18446744073709551615.0}},
		{"SELECT 55::HUGEINT, -170141183460469231731687303715884105727::HUGEINT, 2::UHUGEINT", []any{int64(55), -1.7014118346046923e38, int64(2)}},
		{"SELECT SUM(x) FROM range(1, 11) r(x)", []any{int64(55)}}, // SUM(BIGINT) is HUGEINT
		{"SELECT 0.1::FLOAT, 0.1::DOUBLE, 'nan'::DOUBLE IS NULL", []any{float64(float32(0.1)), 0.1, int64(0)}},
		// DECIMAL is exact, as PostgreSQL's NUMERIC and MySQL's DECIMAL: a float64 only
		// when one equals it (issue 45).
		{"SELECT d, big FROM v WHERE m = 'happy'", []any{55.0, engine.DecimalText("-123456789012345678901.5")}},
		{"SELECT d, m, big FROM v WHERE m IS NULL", []any{engine.DecimalText("-0.05"), nil, 0.0}},
		{"SELECT 12::DECIMAL(4, 0), m FROM v WHERE m IS NOT NULL", []any{int64(12), "happy"}},
		{"SELECT 0.10::DECIMAL(4, 2), 2.50::DECIMAL(4, 2), 12345678901234567890123::DECIMAL(38, 0)", []any{engine.DecimalText("0.1"), 2.5, engine.DecimalText("12345678901234567890123")}},
		{"SELECT 'héllo', '', 'a string longer than twelve bytes'", []any{"héllo", "", "a string longer than twelve bytes"}},
		{"SELECT '\\x00\\xFF'::BLOB, ''::BLOB", []any{[]byte{0, 255}, []byte{}}},
		{"SELECT DATE '2024-01-05', DATE '1969-12-31', 'infinity'::DATE", []any{"2024-01-05", "1969-12-31", "infinity"}},
		{"SELECT TIMESTAMP '2024-01-05 10:00:00', TIMESTAMP '2024-01-05 10:00:00.123', TIMESTAMP '1960-01-01 00:00:00.5'", []any{"2024-01-05 10:00:00", "2024-01-05 10:00:00.123000", "1960-01-01 00:00:00.500000"}},
		{"SELECT '2024-01-05 10:00:01'::TIMESTAMP_S, '2024-01-05 10:00:01.25'::TIMESTAMP_MS, '2024-01-05 10:00:01.000001999'::TIMESTAMP_NS", []any{"2024-01-05 10:00:01", "2024-01-05 10:00:01.250000", "2024-01-05 10:00:01.000001"}},
		{"SELECT TIME '10:11:12', TIME '00:00:00.5'", []any{"10:11:12", "00:00:00.500000"}},
		{"SELECT '550e8400-e29b-41d4-a716-446655440000'::UUID, '00000000-0000-0000-0000-000000000001'::UUID", []any{"550e8400-e29b-41d4-a716-446655440000", "00000000-0000-0000-0000-000000000001"}},
		{"SELECT NULL AS n", []any{nil}},
	}
	for _, tc := range tests {
		res, err := eng.Query(context.Background(), db, tc.query, engine.Limits{Timeout: 10 * time.Second})
		if err != nil {
			t.Errorf("%s: %v", tc.query, err)
			continue
		}
		if res.NumRows() != 1 {
			t.Errorf("%s: %d rows", tc.query, res.NumRows())
			continue
		}
		if diff := cmp.Diff(tc.want, res.Row(0)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.query, diff)
		}
	}
	// TIMESTAMPTZ is written in UTC whatever the session's time zone.
	res, err := eng.Query(context.Background(), db, "SELECT TIMESTAMPTZ '2024-01-05 10:00:00+02'", engine.Limits{})
	if err != nil || !cmp.Equal(res.BoxedRows(), [][]any{{"2024-01-05 08:00:00+00:00"}}) {
		t.Errorf("TIMESTAMPTZ: %v %v", res, err)
	}
	// Many rows cross chunk boundaries (DuckDB's chunks hold 2048), NULLs by the mask.
	res, err = eng.Query(context.Background(), db, "SELECT CASE WHEN x % 3 = 0 THEN NULL ELSE x END AS x FROM range(5000) r(x) ORDER BY r.x", engine.Limits{})
	if err != nil || res.NumRows() != 5000 {
		t.Fatalf("5000 rows: %v", err)
	}
	for i, row := range res.BoxedRows() {
		var want any = int64(i)
		if i%3 == 0 {
			want = nil
		}
		if row[0] != want {
			t.Fatalf("row %d: %v, want %v", i, row[0], want)
		}
	}
}

// TestDuckDBUnsupportedType: a column of a type the engine does not read is an
// infrastructure fault naming the column (the task is unjudged, never wrong).
func TestDuckDBUnsupportedType(t *testing.T) { bothDuckModes(t, testDuckDBUnsupportedType) }

func testDuckDBUnsupportedType(t *testing.T, iso bool) {
	eng, db := newDuck(t, iso)
	for _, q := range []string{"SELECT [1, 2] AS l", "SELECT {'a': 1} AS s", "SELECT INTERVAL 3 DAY AS i"} {
		_, err := eng.Query(context.Background(), db, q, engine.Limits{})
		if !errors.Is(err, engine.ErrInfrastructure) || !strings.Contains(err.Error(), "CAST it to VARCHAR") || !strings.Contains(engine.FaultHint(err), "cast it to VARCHAR") {
			t.Errorf("%s: %v, want an infrastructure fault naming the cast", q, err)
		}
	}
	res, err := eng.Query(context.Background(), db, "SELECT CAST([1, 2] AS VARCHAR) AS l", engine.Limits{})
	if err != nil || !cmp.Equal(res.BoxedRows(), [][]any{{"[1, 2]"}}) {
		t.Errorf("cast list: %v %v", res, err)
	}
}

// TestDuckDBReadOnly: nothing a query does changes the database directory: writes,
// ATTACH (which would create a file), COPY, reading other files, settings, extensions.
func TestDuckDBReadOnly(t *testing.T) { bothDuckModes(t, testDuckDBReadOnly) }

func testDuckDBReadOnly(t *testing.T, iso bool) {
	eng, db := newDuck(t, iso, `CREATE TABLE t (id INTEGER)`, `INSERT INTO t VALUES (1), (2)`)
	dir := filepath.Dir(db)
	before := duckDirSums(t, dir)
	other := filepath.Join(dir, "other.duckdb")
	refused := []string{
		"INSERT INTO t VALUES (3)", "DELETE FROM t", "UPDATE t SET id = 9", "DROP TABLE t",
		"CREATE TABLE z (a INTEGER)", "CREATE VIEW w AS SELECT 1", "ALTER TABLE t ADD COLUMN z INTEGER",
		"ATTACH '" + other + "' AS o", "DETACH o", "COPY t TO '" + filepath.Join(dir, "t.csv") + "'",
		"EXPORT DATABASE '" + filepath.Join(dir, "exp") + "'", "SET threads = 1", "RESET threads",
		"PRAGMA threads = 1", "INSTALL httpfs", "LOAD httpfs", "BEGIN TRANSACTION", "CHECKPOINT",
		"VACUUM", "CALL pragma_version()", "CREATE MACRO m(x) AS x",
	}
	for _, q := range refused {
		if _, err := eng.Query(context.Background(), db, q, engine.Limits{}); err == nil {
			t.Errorf("%q: no error", q)
		} else if !errors.Is(err, engine.ErrNotReadOnly) {
			t.Logf("%q: refused with %v", q, err)
		}
	}
	// Reading another file is refused too (enable_external_access=false).
	csv := filepath.Join(t.TempDir(), "x.csv")
	if err := os.WriteFile(csv, []byte("a\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"SELECT * FROM read_csv('" + csv + "')", "SELECT * FROM '" + csv + "'", "SELECT * FROM read_text('/etc/hostname')"} {
		if _, err := eng.Query(context.Background(), db, q, engine.Limits{}); err == nil {
			t.Errorf("%q: no error, want external access refused", q)
		}
	}
	res, err := eng.Query(context.Background(), db, "SELECT COUNT(*) FROM t", engine.Limits{})
	if err != nil || !cmp.Equal(res.BoxedRows(), [][]any{{int64(2)}}) {
		t.Errorf("after refused writes: %v %v", res, err)
	}
	eng.Close()
	if after := duckDirSums(t, dir); after != before {
		t.Errorf("the database directory changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

func duckDirSums(tb testing.TB, dir string) string {
	tb.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var b strings.Builder
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		fmt.Fprintf(&b, "%x %s\n", sha256.Sum256(data), e.Name())
	}
	return b.String()
}

// TestDuckDBInterruptWhileStreaming: a timeout or a cancellation also stops a query
// that is streaming a huge result (not only one still computing), promptly.
func TestDuckDBInterruptWhileStreaming(t *testing.T) {
	bothDuckModes(t, testDuckDBInterruptWhileStreaming)
}

func testDuckDBInterruptWhileStreaming(t *testing.T, iso bool) {
	eng, db := newDuck(t, iso)
	const q = "SELECT x, x * 2 AS y FROM range(2000000000) r(x)"
	start := time.Now()
	_, err := eng.Query(context.Background(), db, q, engine.Limits{Timeout: 200 * time.Millisecond, MaxBytes: -1})
	if !errors.Is(err, engine.ErrTimeout) {
		t.Errorf("timeout: %v, want ErrTimeout", err)
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("timeout of 200ms took %v", el)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start = time.Now()
	if _, err := eng.Query(ctx, db, q, engine.Limits{MaxBytes: -1}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancel: %v, want context.Canceled", err)
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("cancellation after 200ms took %v", el)
	}
	// An already-cancelled context runs nothing.
	if _, err := eng.Query(ctx, db, "SELECT 1", engine.Limits{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
	// The row cap stops a huge result while streaming, too.
	if _, err := eng.Query(context.Background(), db, q, engine.Limits{MaxRows: 5000}); !errors.Is(err, engine.ErrRowLimit) || !strings.Contains(err.Error(), "5000 rows") {
		t.Errorf("row cap: %v", err)
	}
}

// TestDuckDBOpenErrors: a missing file or a file that is not a DuckDB database is an
// infrastructure fault; no library is a clear error naming both ways to give one.
func TestDuckDBOpenErrors(t *testing.T) { bothDuckModes(t, testDuckDBOpenErrors) }

func testDuckDBOpenErrors(t *testing.T, iso bool) {
	eng, _ := newDuck(t, iso)
	dir := t.TempDir()
	if _, err := eng.Query(context.Background(), filepath.Join(dir, "nope.duckdb"), "SELECT 1", engine.Limits{}); !errors.Is(err, engine.ErrInfrastructure) || !errors.Is(err, engine.ErrNoDatabase) {
		t.Errorf("missing file: %v", err)
	}
	junk := filepath.Join(dir, "junk.duckdb")
	os.WriteFile(junk, []byte("not a database, not at all, no header here at all............"), 0o644)
	if _, err := eng.Query(context.Background(), junk, "SELECT 1", engine.Limits{}); !errors.Is(err, engine.ErrInfrastructure) {
		t.Errorf("junk file: %v", err)
	}
	t.Setenv(engine.LibDuckDBEnv, "")
	_, err := engine.NewDuckDB(engine.DuckDBOptions{})
	if !errors.Is(err, engine.ErrNoLibDuckDB) || !strings.Contains(err.Error(), "--duckdb-lib") || !strings.Contains(err.Error(), engine.LibDuckDBEnv) {
		t.Errorf("no library: %v", err)
	}
}

// BenchmarkDuckDBOpenQuery is a fresh engine opening a file and running SELECT 1: the
// cost of the first query on a database.
func BenchmarkDuckDBOpenQuery(b *testing.B) {
	lib := testutil.LibDuckDB(b)
	path := filepath.Join(b.TempDir(), "db.duckdb")
	if err := engine.CreateDuckDB(lib, path, "CREATE TABLE t (id INTEGER)", "INSERT INTO t VALUES (1)"); err != nil {
		b.Fatal(err)
	}
	for _, m := range duckModes {
		b.Run(m.name, func(b *testing.B) {
			for b.Loop() {
				eng, err := engine.NewDuckDB(engine.DuckDBOptions{Lib: lib, Isolate: m.iso})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := eng.Query(context.Background(), path, "SELECT id FROM t", engine.Limits{}); err != nil {
					b.Fatal(err)
				}
				eng.Close()
			}
		})
	}
}

// duckModes names the two ways of running a statement, for sub-benchmarks.
var duckModes = []struct {
	name string
	iso  bool
}{{"in-process", false}, {"isolated", true}}

// BenchmarkDuckDBSmallSelect is BenchmarkSmallSelect on DuckDB: one small SELECT on an
// open database (DuckDB: a connection per query), in-process and in a worker process.
func BenchmarkDuckDBSmallSelect(b *testing.B) {
	for _, m := range duckModes {
		b.Run(m.name, func(b *testing.B) { benchDuckSmallSelect(b, m.iso) })
	}
}

func benchDuckSmallSelect(b *testing.B, iso bool) {
	eng, db := newDuck(b, iso, "CREATE TABLE t (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL)",
		"INSERT INTO t SELECT x, 'name' || x FROM range(1, 11) r(x)")
	lim := engine.Limits{Timeout: 5 * time.Second, MaxRows: 1000}
	b.ReportAllocs()
	for b.Loop() {
		res, err := eng.Query(context.Background(), db, "SELECT id, name FROM t WHERE id = 3", lim)
		if err != nil || res.NumRows() != 1 {
			b.Fatal(err)
		}
	}
}

// BenchmarkDuckDBMillionRows is BenchmarkMillionRows on DuckDB: a 1,000,000-row result of
// an integer and a text column, in-process and through a worker's pipe.
func BenchmarkDuckDBMillionRows(b *testing.B) {
	for _, m := range duckModes {
		b.Run(m.name, func(b *testing.B) { benchDuckMillionRows(b, m.iso) })
	}
}

func benchDuckMillionRows(b *testing.B, iso bool) {
	eng, db := newDuck(b, iso)
	b.ReportAllocs()
	for b.Loop() {
		res, err := eng.Query(context.Background(), db, "SELECT x, 'row' || x FROM range(1, 1000001) r(x)", engine.Limits{})
		if err != nil || res.NumRows() != 1000000 {
			b.Fatal(err)
		}
	}
}

// TestDuckDBByteCapOneValue: one value larger than the byte cap is the byte limit, in
// both modes (through a worker it once crossed the pipe whole and was read as a broken
// frame, then as the worker dying twice: a DBError).
func TestDuckDBByteCapOneValue(t *testing.T) { bothDuckModes(t, testDuckDBByteCapOneValue) }

func testDuckDBByteCapOneValue(t *testing.T, iso bool) {
	eng, db := newDuck(t, iso)
	_, err := eng.Query(context.Background(), db, "SELECT 1 AS a, repeat('x', 1000000) AS b", engine.Limits{MaxBytes: 100})
	if !errors.Is(err, engine.ErrByteLimit) || !strings.Contains(err.Error(), "100 bytes") {
		t.Errorf("a 1 MB value under a 100-byte cap: %v, want ErrByteLimit naming 100 bytes", err)
	}
}
