package benchrun

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// spider2DuckDB opens the DuckDB engine when the run needs it (spider2NeedsDuckDB): nil
// otherwise, so a run that needs no DuckDB never loads the library. Without a library,
// why is the reason those tasks are skipped (it names --duckdb-lib and
// NL2SQLBENCH_LIBDUCKDB).
func spider2DuckDB(p *Plan) (eng *engine.DuckDB, why string) {
	if !spider2NeedsDuckDB(p) {
		return nil, ""
	}
	eng, err := engine.NewDuckDB(engine.DuckDBOptions{Lib: p.Config.DuckDBLib, Threads: duckThreads(p.Config.Workers), Isolate: engine.DuckDBIsolationSupported})
	if err != nil {
		return nil, err.Error()
	}
	return eng, ""
}

// spider2NeedsDuckDB reports whether a task answered with SQL runs locally on a DuckDB
// file under the root (one with no SQLite file beside it).
func spider2NeedsDuckDB(p *Plan) bool {
	ds := p.Dataset
	if ds.Spider2 == nil {
		return false
	}
	for i, t := range ds.Spider2.Tasks {
		if t.Backend != dataset.BackendSQLite || !answeredWithSQL(p.Systems, i) {
			continue
		}
		db := ds.Questions[i].DBID
		if _, ok := ds.DBPath(db); ok {
			continue
		}
		if _, ok := ds.DuckDBPath(db); ok {
			return true
		}
	}
	return false
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

// duckDBSetting is the manifest's duckdb setting: the library's version and path when
// the run executes on DuckDB files (--engine duckdb, or Spider 2.0 SQL answers on them),
// so that a resumed run refuses another library. A library that does not load is
// recorded as "" (the run then skips, or refuses, what needs it).
func duckDBSetting(cfg Config, p *Plan) string {
	if cfg.Engine != "duckdb" && !spider2NeedsDuckDB(p) {
		return ""
	}
	if cfg.ResumedDuckDB != nil {
		return resumedDuckDB(cfg)
	}
	path, v, err := engine.DuckDBLibrary(cfg.DuckDBLib)
	if err != nil {
		return ""
	}
	return v + " " + absPath(filepath.Clean(path))
}

// duckDBLibPath is the library the run would load: --duckdb-lib or the environment's.
func duckDBLibPath(cfg Config) string {
	lib := cfg.DuckDBLib
	if lib == "" {
		lib = os.Getenv(engine.LibDuckDBEnv)
	}
	if lib == "" {
		return ""
	}
	return absPath(filepath.Clean(lib))
}

// resumedDuckDB is duckDBSetting without loading the library: the resumed run's own
// setting when it names the same file, else one naming this file (the manifests then
// differ, and the difference is reported before anything is loaded).
func resumedDuckDB(cfg Config) string {
	prev := *cfg.ResumedDuckDB
	path := duckDBLibPath(cfg)
	if _, prevPath, ok := strings.Cut(prev, " "); ok && prevPath == path && path != "" {
		return prev
	}
	if path == "" {
		return ""
	}
	return "(not loaded) " + path
}

// CheckDuckDB loads the library of a resumed run, once its manifest matched, and
// checks that it is the version the run recorded (want, the manifest's setting).
func CheckDuckDB(cfg Config, want string) error {
	if want == "" {
		return nil
	}
	path, v, err := engine.DuckDBLibrary(cfg.DuckDBLib)
	if err != nil {
		return fmt.Errorf("--resume: the run used DuckDB %s: %w", want, err)
	}
	if got := v + " " + absPath(filepath.Clean(path)); got != want {
		return fmt.Errorf("--resume: the run used DuckDB %s, this one loads %s", want, got)
	}
	return nil
}
