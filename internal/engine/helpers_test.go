package engine

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
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
	// Four parallel tests a core: the parallel ones wait (a cut proxy, a silent server,
	// probe and busy timeouts, statements on a server); 60 s -> 28 s (issue 44). The
	// tests whose subject is time (contract timeouts, the heap limit) are serial and run
	// before any parallel test starts.
	testutil.ParallelUnlessSet()
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
