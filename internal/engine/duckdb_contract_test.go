package engine_test

import (
	"path/filepath"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// duckFixture is contractFixture in DuckDB's dialect: the same tables, rows and types
// (REAL is a 4-byte float in DuckDB; 1.5 and 2.5 are exact in it).
var duckFixture = []string{
	`CREATE TABLE t (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, score REAL, note VARCHAR, data BLOB)`,
	`INSERT INTO t SELECT x, 'name' || x, NULL, 'n' || x, NULL FROM range(1, 11) r(x)`,
	`UPDATE t SET name = 'alpha', score = 1.5, note = NULL, data = '\x00\xFF'::BLOB WHERE id = 1`,
	`UPDATE t SET name = 'beta', score = 2.5, data = ''::BLOB WHERE id = 2`,
	`CREATE TABLE k (a VARCHAR, b INTEGER, PRIMARY KEY (b, a))`,
	`INSERT INTO k VALUES ('x', 1), ('y', 1)`,
}

// duckTarget builds the DuckDB fixture file (read-write, once) and the engine on it,
// and the same engine running its statements in worker processes (duckdb_worker.go).
func duckTargets(t *testing.T, lib string) []contractTarget {
	t.Helper()
	path := filepath.Join(t.TempDir(), contractDB+".duckdb")
	if err := engine.CreateDuckDB(lib, path, duckFixture...); err != nil {
		t.Fatal(err)
	}
	eng, err := engine.NewDuckDB(engine.DuckDBOptions{Lib: lib})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("DuckDB %s from %s", eng.Version(), lib)
	targets := []contractTarget{{"duckdb", eng, path}}
	if engine.DuckDBIsolationSupported {
		iso, err := engine.NewDuckDB(engine.DuckDBOptions{Lib: lib, Isolate: true})
		if err != nil {
			t.Fatal(err)
		}
		targets = append(targets, contractTarget{"duckdb-isolated", iso, path})
	}
	return targets
}
