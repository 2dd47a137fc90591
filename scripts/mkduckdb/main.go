// Command mkduckdb creates a DuckDB database file and runs SQL statements on it,
// read-write, through the same run-time-loaded libduckdb.so as the DuckDB engine (so no
// DuckDB CLI is needed to build an example or test database; docs/spider2.md uses it).
//
//	go run ./scripts/mkduckdb [-lib libduckdb.so] FILE.duckdb 'CREATE TABLE ...' 'INSERT ...'
//
// The library is -lib, else $NL2SQLBENCH_LIBDUCKDB (bash .ci/duckdb.sh prints one).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

func main() {
	lib := flag.String("lib", "", "libduckdb.so (default $"+engine.LibDuckDBEnv+")")
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "usage: mkduckdb [-lib PATH] FILE.duckdb [SQL ...]")
		os.Exit(2)
	}
	if err := engine.CreateDuckDB(*lib, flag.Arg(0), flag.Args()[1:]...); err != nil {
		fmt.Fprintln(os.Stderr, "mkduckdb:", err)
		os.Exit(1)
	}
}
