package run

import (
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// spider2DuckDB opens the DuckDB engine when a task answered with SQL runs locally and its
// database is a DuckDB file under the root (and no SQLite file): nil otherwise, so a run
// that needs no DuckDB never loads the library. Without a library, why is the reason
// those tasks are skipped (it names --duckdb-lib and NL2SQLBENCH_LIBDUCKDB).
func spider2DuckDB(p *Plan) (eng *engine.DuckDB, why string) {
	ds := p.Dataset
	for i, t := range ds.Spider2.Tasks {
		if t.Backend != dataset.BackendSQLite || !answeredWithSQL(p.Systems, i) {
			continue
		}
		db := ds.Questions[i].DBID
		if _, ok := ds.DBPath(db); ok {
			continue
		}
		if _, ok := ds.DuckDBPath(db); !ok {
			continue
		}
		eng, err := engine.NewDuckDB(engine.DuckDBOptions{Lib: p.Config.DuckDBLib, Threads: duckThreads(p.Config.Workers)})
		if err != nil {
			return nil, err.Error()
		}
		return eng, ""
	}
	return nil, ""
}

// answeredWithSQL reports whether some system answered task i with a .sql file.
func answeredWithSQL(systems []System, i int) bool {
	for _, s := range systems {
		if i < len(s.Spider2) && s.Spider2[i] != nil && s.Spider2[i].SQL {
			return true
		}
	}
	return false
}

// duckThreads is DuckDB's threads per database for a run of workers parallel tasks: the
// engine's default (0) when one task runs at a time, else 1 each, so that workers tasks
// do not each start a thread per CPU.
func duckThreads(workers int) int {
	if workers > 1 {
		return 1
	}
	return 0
}
