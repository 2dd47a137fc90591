package engine

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// FuzzSQLiteQuery: any statement, run through the read-only guard and executed on a small
// database, returns a result or an error and never panics, and the database directory is
// byte for byte the same afterwards (no write, no journal, no file created by ATTACH or
// VACUUM INTO).
func FuzzSQLiteQuery(f *testing.F) {
	dir := f.TempDir()
	path := filepath.Join(dir, "fuzz.sqlite")
	for _, seed := range []string{
		"VACUUM INTO '" + filepath.Join(dir, "copy.sqlite") + "'",
		"ATTACH DATABASE '" + filepath.Join(dir, "other.sqlite") + "' AS o",
		"ATTACH DATABASE '" + path + "' AS o",
		"SELECT name FROM t WHERE id < 3 ORDER BY id",
		"SELECT count(*), group_concat(name) FROM t",
		"select * from t where name like 'name1%'",
		"UPDATE t SET name = 'x'",
		"DELETE FROM t",
		"INSERT INTO t VALUES (99, 'y')",
		"DROP TABLE t",
		"CREATE TABLE u (x)",
		"PRAGMA user_version = 7",
		"PRAGMA journal_mode = DELETE",
		"VACUUM",
		"SELECT 1; DELETE FROM t",
		"SELECT 1;",
		"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c",
		"SELECT zeroblob(1000000000)",
		"SELECT randomblob(10), X'FF00', 9e999, -0.0, 'caf\xe9'",
		"SELECT load_extension('x')",
		"SELECT writefile('x', 'y')",
		"BEGIN; SELECT 1",
		"REINDEX",
		"ANALYZE",
	} {
		f.Add(seed)
	}
	if err := createDB(path, fixtureStmts...); err != nil {
		f.Fatal(err)
	}
	before, err := sumDir(dir)
	if err != nil {
		f.Fatal(err)
	}
	e := NewSQLite()
	f.Cleanup(func() { e.Close() })
	ctx := context.Background()
	lim := Limits{Timeout: 2 * time.Second, MaxRows: 1000}
	f.Fuzz(func(t *testing.T, query string) {
		if len(query) > 2048 {
			t.Skip("longer than 2 KB")
		}
		res, err := e.Query(ctx, path, query, lim)
		if err == nil && res == nil {
			t.Fatalf("Query(%q): no result and no error", query)
		}
		if err != nil && res != nil {
			t.Fatalf("Query(%q): a result and an error %v", query, err)
		}
		if res != nil && res.TextIsUTF8() != scanUTF8(res) {
			t.Fatalf("Query(%q): TextIsUTF8 = %v, a scan of the texts says otherwise", query, res.TextIsUTF8())
		}
		var dbe *DBError
		if err != nil && !errors.As(err, &dbe) && !errors.Is(err, ErrNotReadOnly) && !errors.Is(err, ErrMultipleStatements) &&
			!errors.Is(err, ErrEmptyQuery) && !errors.Is(err, ErrTimeout) && !errors.Is(err, ErrRowLimit) {
			t.Logf("Query(%q): unclassified error %v", query, err)
		}
		after, err := sumDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if after != before {
			t.Fatalf("Query(%q) changed the database directory:\nbefore:\n%s\nafter:\n%s", query, before, after)
		}
	})
}
