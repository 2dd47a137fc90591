package testutil

import (
	"os"
	"testing"
)

// LibDuckDB returns the libduckdb.so named by NL2SQLBENCH_LIBDUCKDB, or skips the test
// saying how to get one (the DuckDB engine loads the library at run time; nothing links it).
func LibDuckDB(tb testing.TB) string {
	tb.Helper()
	p := os.Getenv("NL2SQLBENCH_LIBDUCKDB")
	if p == "" {
		tb.Skip("NL2SQLBENCH_LIBDUCKDB not set: DuckDB tests skipped (export NL2SQLBENCH_LIBDUCKDB=\"$(bash .ci/duckdb.sh)\" to run them)")
	}
	if _, err := os.Stat(p); err != nil {
		tb.Fatalf("NL2SQLBENCH_LIBDUCKDB names no file: %v", err)
	}
	return p
}
