package engine

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mattn/go-sqlite3"
)

// Issue 45, failure 8: with a writer holding BEGIN EXCLUSIVE (its journal on disk), 4 of
// 12 questions became `gold_error: database is locked`. A locked database is a fault
// (never a verdict) after the busy timeout, with a hint that is not "restart the server".
func TestSQLiteLockedIsFault(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("waits out SQLite's 5 s busy timeout")
	}
	path := makeDB(t, "locked.sqlite", fixtureStmts...)
	w, err := sql.Open("sqlite3", SQLiteURI(path, "mode=rw&_txlock=exclusive&cache_size=1"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	tx, err := w.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	// Enough rows to spill the one-page cache: the journal is written beside the file.
	if _, err := tx.Exec(`CREATE TABLE big AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r WHERE i < 5000) SELECT i, hex(randomblob(100)) AS b FROM r`); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-journal"); err != nil {
		t.Fatalf("no journal beside the locked database: %v", err)
	}
	e := newEngine(t)
	t0 := time.Now()
	_, err = e.Query(context.Background(), path, "SELECT * FROM t", Limits{Timeout: 30 * time.Second})
	if !errors.Is(err, ErrInfrastructure) || !strings.Contains(err.Error(), "locked") {
		t.Fatalf("err = %v, want a fault saying the database is locked", err)
	}
	var de *DBError
	if errors.As(err, &de) {
		t.Errorf("a lock became a query error: %v", de)
	}
	if h := FaultHint(err); !strings.Contains(h, "process writing") {
		t.Errorf("hint %q", h)
	}
	if d := time.Since(t0); d > 15*time.Second {
		t.Errorf("waited %s on the lock: the busy timeout is not bounded", d)
	}
}

// Issue 45, failure 11: a WAL database without -shm on a read-only mount failed as "no
// such file or directory" (the file exists) and then "restart the database server".
func TestSQLiteWALWithoutSHMOnReadOnlyFolder(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.sqlite")
	for _, f := range []string{path, path + "-wal"} {
		if err := os.WriteFile(f, []byte("x"), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	old := dirWritable
	dirWritable = func(string) error { return syscall.EROFS }
	defer func() { dirWritable = old }()
	cause := &FaultError{Op: "cannot read sqlite database", Err: errors.New("unable to open database file: no such file or directory")}
	err := openError(path, cause)
	if !errors.Is(err, ErrInfrastructure) {
		t.Fatalf("%v is not a fault", err)
	}
	for _, want := range []string{"WAL mode", "-shm", "read-only file system", dir} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "no such file") || strings.Contains(FaultHint(err), "restart") {
		t.Errorf("message %q, hint %q", err, FaultHint(err))
	}
	// With its -shm there, or a writable folder, the error is left as it was.
	dirWritable = func(string) error { return nil }
	if got := openError(path, cause); got != error(cause) {
		t.Errorf("writable folder: %v", got)
	}
	// A query error is never rewritten.
	qe := &DBError{Message: "no such table: t"}
	if got := openError(path, qe); got != error(qe) {
		t.Errorf("query error rewritten: %v", got)
	}
}

// Attack: the busy and locked codes are faults wherever they come from, and a fault's
// hint defaults to restarting the server only when it has none.
func TestSQLiteBusyCodesAreFaults(t *testing.T) {
	for _, code := range []int{5 /* SQLITE_BUSY */, 6 /* SQLITE_LOCKED */, 11 /* SQLITE_CORRUPT */, 26 /* SQLITE_NOTADB */} {
		err := dbError(sqliteErr(code))
		if !errors.Is(err, ErrInfrastructure) {
			t.Errorf("sqlite code %d: %v, want a fault", code, err)
		}
	}
	if h := FaultHint(&FaultError{Op: "lost connection to postgres", Err: errors.New("EOF")}); h != "restart the database server" {
		t.Errorf("default hint %q", h)
	}
}

func sqliteErr(code int) error { return sqlite3.Error{Code: sqlite3.ErrNo(code)} }

// TestSQLiteDamagedIsFault (issue 45, attack campaign of round 54): a database file
// overwritten during a run, or never a database, made every later question a
// gold_error ("file is not a database") and the run exited 0 with a score. It is a fault
// now: the run stops, naming the file, and resumes once the file is restored.
func TestSQLiteDamagedIsFault(t *testing.T) {
	t.Parallel()
	e := newEngine(t)
	// A database the run had not opened yet when it was overwritten (the attack: the
	// second database of two, damaged while the first question ran).
	path := makeDB(t, "damaged.sqlite", fixtureStmts...)
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte(strings.Repeat("X", 100))) // the header, as the attack did
	f.Close()
	garbage := filepath.Join(t.TempDir(), "garbage.sqlite")
	os.WriteFile(garbage, []byte(strings.Repeat("not a database ", 600)), 0o644)
	for _, p := range []string{path, garbage} {
		_, err := e.Query(context.Background(), p, "SELECT * FROM t", Limits{Timeout: 5 * time.Second})
		var de *DBError
		if !errors.Is(err, ErrInfrastructure) || errors.As(err, &de) {
			t.Errorf("%s: %v; want a fault, not a query error", filepath.Base(p), err)
		}
		if h := FaultHint(err); !strings.Contains(h, "restore the database file") {
			t.Errorf("%s: hint %q (%v)", filepath.Base(p), h, err)
		}
	}
}
