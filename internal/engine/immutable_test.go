package engine

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadOnlyDSNImmutableOnlyWhenSettled: a database file alone is opened immutable; one
// with a write-ahead log or a rollback journal beside it is not.
func TestReadOnlyDSNImmutableOnlyWhenSettled(t *testing.T) {
	path := makeDB(t, "a.sqlite", `CREATE TABLE t (x)`)
	if dsn := ReadOnlyDSN(path); !strings.Contains(dsn, "immutable=1") {
		t.Errorf("settled file: ReadOnlyDSN = %q, want immutable=1", dsn)
	}
	for _, suffix := range []string{"-wal", "-journal"} {
		if err := os.WriteFile(path+suffix, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if dsn := ReadOnlyDSN(path); strings.Contains(dsn, "immutable") {
			t.Errorf("with %s beside it: ReadOnlyDSN = %q, want no immutable", suffix, dsn)
		}
		os.Remove(path + suffix)
	}
}

// TestReadsRowsOnlyInTheWAL: rows committed to a WAL-mode database but not yet checkpointed
// live only in its -wal file; immutable=1 would not see them. The engine must.
func TestReadsRowsOnlyInTheWAL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wal.sqlite")
	w, err := sql.Open("sqlite3", SQLiteURI(path, "mode=rwc"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1) // one connection: it stays open, so the WAL is not checkpointed away
	for _, stmt := range []string{
		`PRAGMA journal_mode = WAL`, `PRAGMA wal_autocheckpoint = 0`,
		`CREATE TABLE t (x INTEGER)`, `INSERT INTO t VALUES (1), (2), (3)`,
	} {
		if _, err := w.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Fatalf("the test needs a -wal file: %v", err)
	}
	e := newEngine(t)
	res := mustQuery(t, e, path, `SELECT count(*) FROM t`, Limits{})
	if got := res.Int(0, 0); got != 3 {
		t.Errorf("count(*) with the rows in the WAL = %v, want 3", got)
	}
}
