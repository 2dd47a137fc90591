package engine

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/mattn/go-sqlite3" // also registers the "sqlite3" driver
)

// The openings below are the only ones outside this package's own (SQLite.Query and
// LoadScript), so that every SQLite handle in the tool is made here, with the same URIs.

// OpenSQLiteReadOnly opens the SQLite file at path read-only (ReadOnlyDSN: mode=ro and
// query_only) with at most maxConns connections, for a package that reads a database's
// structure or samples through database/sql (schema introspection, counterexample probes)
// rather than through SQLite.Query.
func OpenSQLiteReadOnly(path string, maxConns int) (*sql.DB, error) {
	db, err := sql.Open("sqlite3", ReadOnlyDSN(path))
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	db.SetMaxOpenConns(maxConns)
	return db, nil
}

// OpenSQLiteMemory opens a private in-memory database with foreign keys enforced, on one
// connection (each connection of an in-memory database is a database of its own). It is
// for DDL and rows the caller generates itself; a script from a file goes through
// LoadScript, which holds it to a whitelist.
func OpenSQLiteMemory() (*sql.DB, error) {
	db, err := sql.Open("sqlite3", scratchDSN)
	if err != nil {
		return nil, fmt.Errorf("open scratch database: %w", err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// OpenSQLiteFile opens the SQLite file at path read-write, creating it when missing, on
// one connection (so a PRAGMA applies to every statement after it), with extra URI
// parameters (e.g. "_journal_mode=OFF"). It is for databases the tool builds itself,
// which may run SQL from a dataset or a prediction (a task's setup, a prediction that
// writes its copy): such SQL may change this file and nothing else, so the connection
// attaches no database (SQLITE_LIMIT_ATTACHED 0 and an authorizer that denies ATTACH,
// DETACH and extension loading; VACUUM INTO attaches its target, so it is refused too).
// Without that, `ATTACH '/any/path' AS x; CREATE TABLE x.t(a)` wrote a file anywhere the
// tool's user may, and the template's read-only mode does not stop root.
func OpenSQLiteFile(path, params string) (*sql.DB, error) {
	uri := "mode=rwc"
	if params != "" {
		uri += "&" + params
	}
	db, err := sql.Open(fileDriverName, SQLiteURI(path, uri))
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// openError says what is wrong when SQLite cannot open the file at path (err, from
// dbError, is a fault): a database in WAL mode with its -wal file but no -shm, in a folder
// SQLite cannot create the -shm in (a read-only mount), fails as "unable to open database
// file: no such file or directory" although the file is there; that is said instead.
func openError(path string, err error) error {
	if !errors.Is(err, ErrInfrastructure) {
		return err
	}
	if _, werr := os.Lstat(path + "-wal"); werr != nil {
		return err
	}
	if _, serr := os.Lstat(path + "-shm"); serr == nil {
		return err
	}
	dir := filepath.Dir(path)
	aerr := dirWritable(dir)
	if aerr == nil {
		return err
	}
	return &FaultError{
		Op: "cannot open sqlite database in WAL mode",
		Err: fmt.Errorf("%s has a write-ahead log (%s-wal) but no shared-memory file (-shm), and SQLite cannot create one in %s (%v)",
			path, filepath.Base(path), dir, aerr),
		Hint: "open the database once where its folder is writable (sqlite3 FILE 'PRAGMA wal_checkpoint(TRUNCATE)' folds the log into the file), or copy it with its -wal file to a writable folder",
	}
}

// dirWritable is nil when the process may create files in dir (access(2) W_OK: EROFS on
// a read-only mount, EACCES without permission). A variable for the tests, which run as
// root in CI, where only a read-only mount says no.
var dirWritable = func(dir string) error { return syscall.Access(dir, 2 /* W_OK */) }

// fileDriverName is the go-sqlite3 driver of OpenSQLiteFile (fileConnect).
const fileDriverName = "sqlite3_nl2sqlbench_file"

func init() {
	sql.Register(fileDriverName, &sqlite3.SQLiteDriver{ConnectHook: fileConnect})
}

// fileConnect confines a connection to its own file before any statement runs.
func fileConnect(c *sqlite3.SQLiteConn) error {
	c.SetLimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
	c.RegisterAuthorizer(fileAuthorizer)
	return nil
}

// fileAuthorizer allows everything on the connection's own database but attaching
// another file and loading code.
func fileAuthorizer(op int, _, arg2, _ string) int {
	switch op {
	case sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH:
		return sqlite3.SQLITE_DENY
	case sqlite3.SQLITE_FUNCTION:
		if deniedFunctions[strings.ToLower(arg2)] {
			return sqlite3.SQLITE_DENY
		}
	}
	return sqlite3.SQLITE_OK
}
