package engine

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// fixturePath is a database shared by the tests that try to write to it. TestMain checks
// that its bytes are the same after every test has run.
var fixturePath string

// fixtureStmts build the shared fixture: t holds ids 1..10.
var fixtureStmts = []string{
	`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
	`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10)
	 INSERT INTO t SELECT x, 'name' || x FROM c`,
	`CREATE INDEX t_name ON t (name)`,
}

func TestMain(m *testing.M) {
	flag.Parse()
	parallelUnlessSet()
	dir, err := os.MkdirTemp("", "engine-fixture-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "create fixture dir:", err)
		os.Exit(2)
	}
	fixturePath = filepath.Join(dir, "fixture.sqlite")
	if err := createDB(fixturePath, fixtureStmts...); err != nil {
		fmt.Fprintln(os.Stderr, "create fixture:", err)
		os.Exit(2)
	}
	before, err := sumDir(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	code := m.Run()
	after, err := sumDir(dir)
	if err != nil || after != before {
		fmt.Fprintf(os.Stderr, "FAIL: the fixture directory changed during the tests (err %v)\nbefore:\n%s\nafter:\n%s\n", err, before, after)
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// parallelUnlessSet runs up to four times as many parallel tests as cores, unless
// -parallel was given: this package's parallel tests mostly wait (a cut proxy, a silent
// server, a probe or busy timeout, a statement on a server), and at go test's default
// (one per core) they queued behind each other. Measured on the quiet machine (issue 44):
// the package took 60 s with those waits in a row, 45-48 s with them parallel at one a
// core. The tests whose subject is time (the contract's statement timeouts, the heap
// limit) are not parallel: they run before any parallel test starts.
func parallelUnlessSet() {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
}

// sumDir lists every file of dir with its sha256, so that a modified database, a journal
// left behind or a file created by ATTACH all show up as a difference.
func sumDir(dir string) (string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", dir, err)
	}
	var b strings.Builder
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return "", fmt.Errorf("read %s: %w", e.Name(), err)
		}
		fmt.Fprintf(&b, "%x  %s\n", sha256.Sum256(data), e.Name())
	}
	return b.String(), nil
}

// createDB creates (or extends) a writable SQLite file at path and runs stmts on it.
func createDB(path string, stmts ...string) error {
	db, err := sql.Open("sqlite3", "file:"+strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path))
	if err != nil {
		return err
	}
	defer db.Close()
	stmts = append([]string{"PRAGMA user_version = 1"}, stmts...) // makes the file exist
	for _, s := range stmts {
		if _, err := db.ExecContext(context.Background(), s); err != nil {
			return fmt.Errorf("exec %q: %w", s, err)
		}
	}
	return nil
}

// makeDB creates a database called name in a fresh temporary directory.
func makeDB(tb testing.TB, name string, stmts ...string) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), name)
	if err := createDB(path, stmts...); err != nil {
		tb.Fatalf("create %s: %v", path, err)
	}
	return path
}

// newEngine returns an engine closed when the test ends.
func newEngine(tb testing.TB) *SQLite {
	tb.Helper()
	e := NewSQLite()
	tb.Cleanup(func() {
		if err := e.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return e
}

// mustQuery runs query and fails the test on error.
func mustQuery(tb testing.TB, e Engine, path, query string, lim Limits) *Result {
	tb.Helper()
	res, err := e.Query(context.Background(), path, query, lim)
	if err != nil {
		tb.Fatalf("Query(%q): %v", query, err)
	}
	return res
}
