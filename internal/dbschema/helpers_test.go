package dbschema

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// makeDB creates an SQLite file called name in a temporary directory, runs stmts on it and
// returns its path.
func makeDB(tb testing.TB, name string, stmts ...string) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), name)
	db, err := sql.Open("sqlite3", engine.SQLiteURI(path, "mode=rwc"))
	if err != nil {
		tb.Fatalf("open %s: %v", path, err)
	}
	defer db.Close()
	// Writing the header makes the file exist even when stmts create nothing.
	stmts = append([]string{"PRAGMA user_version = 7"}, stmts...)
	for _, s := range stmts {
		if _, err := db.ExecContext(context.Background(), s); err != nil {
			tb.Fatalf("exec %q: %v", s, err)
		}
	}
	return path
}

func fileSum(tb testing.TB, path string) [32]byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("read %s: %v", path, err)
	}
	return sha256.Sum256(b)
}
