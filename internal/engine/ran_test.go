package engine

import (
	"context"
	"database/sql"
	"testing"
)

// TestSQLiteRan: Ran knows exactly the texts Query ran without error, byte for byte and
// per file; a text that failed (or was only run on another file) is not known.
func TestSQLiteRan(t *testing.T) {
	a := makeDB(t, "a.sqlite", "CREATE TABLE t (x INTEGER)", "INSERT INTO t VALUES (1)")
	b := makeDB(t, "b.sqlite", "CREATE TABLE u (y INTEGER)")
	e := newEngine(t)
	ctx := context.Background()
	ran := []string{"SELECT x FROM t", "SELECT x FROM t;", "SELECT x FROM t ; -- done\n"}
	failed := []string{"SELECT nope FROM t", "SELECT x FROM t; SELECT 1", "", "PRAGMA query_only = 0", "SELECT x FROM t\x00"}
	for _, q := range ran {
		mustQuery(t, e, a, q, Limits{})
	}
	for _, q := range failed {
		if _, err := e.Query(ctx, a, q, Limits{}); err == nil {
			t.Fatalf("Query(%q) ran; the test wants it to fail", q)
		}
	}
	for _, q := range ran {
		if !e.Ran(a, q) {
			t.Errorf("Ran(a, %q) = false after it ran", q)
		}
		if e.Ran(b, q) {
			t.Errorf("Ran(b, %q) = true: it ran on a, not b", q)
		}
	}
	for _, q := range append(failed, "SELECT x FROM t ", " SELECT x FROM t", "select x from t") {
		if e.Ran(a, q) {
			t.Errorf("Ran(a, %q) = true: it never ran without error", q)
		}
	}
	// What Ran promises: the text prepares on a plain read-only connection to the file.
	for _, q := range ran {
		db := openPlain(t, a)
		if err := CheckPrepares(ctx, db, q); err != nil {
			t.Errorf("Ran(a, %q) but CheckPrepares: %v", q, err)
		}
	}
}

// openPlain opens path read-only with the plain go-sqlite3 driver, as ETM does.
func openPlain(tb testing.TB, path string) *sql.DB {
	tb.Helper()
	db, err := sql.Open("sqlite3", ReadOnlyDSN(path))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}
