package testutil

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// DuckDBWorkers lists the DuckDB worker processes (engine/duckdb_worker.go) whose parent
// is the process parent; a parent of 0 lists every worker of any parent. It skips the
// test where there is no /proc.
func DuckDBWorkers(tb testing.TB, parent int) []int {
	tb.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		tb.Skipf("no /proc: %v", err)
	}
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// Field 4 is the parent's pid; the command name (field 2) may hold spaces, so
		// count from its closing parenthesis. A zombie (state Z) has ended.
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(f) < 2 || f[0] == "Z" || (parent != 0 && f[1] != strconv.Itoa(parent)) {
			continue
		}
		env, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if strings.Contains(string(env), "\x00NL2SQLBENCH_DUCKDB_WORKER=") || strings.HasPrefix(string(env), "NL2SQLBENCH_DUCKDB_WORKER=") {
			pids = append(pids, pid)
		}
	}
	return pids
}
