package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
)

// --engine duckdb runs predictions (and, with --gold-engine same, gold SQL) on DuckDB
// files under the dataset's root: <db>.duckdb or <db>/<db>.duckdb. The library is
// loaded at run time (--duckdb-lib or $NL2SQLBENCH_LIBDUCKDB).

var _ benchrun.DatasetServer = (*engineOpts)(nil)

// UseDataset remembers the dataset whose root holds the DuckDB files.
func (o *engineOpts) UseDataset(ds *dataset.Dataset) { o.duckDS = ds }

// openDuckDB is Open for --engine duckdb.
func (o *engineOpts) openDuckDB(workers int, sqlite engine.Engine) (engine.Engine, judge.Locator, *judge.Target, error) {
	ds := o.duckDS
	if ds == nil {
		return nil, nil, nil, fmt.Errorf("--engine duckdb: no dataset to find the DuckDB files in")
	}
	threads := 0 // the engine's default: the CPUs, at most 4
	if workers > 1 {
		threads = 1 // workers queries at once each get a thread, not a thread per CPU
	}
	eng, err := engine.NewDuckDB(engine.DuckDBOptions{Lib: o.DuckDBLib, Threads: threads})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("--engine duckdb: %w", err)
	}
	var gold *judge.Target
	if o.GoldEngine == engineSQLite {
		gold = &judge.Target{Engine: sqlite}
	}
	return eng, ds.DuckDBPath, gold, nil
}

// pingDuckDB opens the first question's DuckDB file and runs SELECT 1 there, so that a
// run whose --db-root holds no DuckDB files stops at once.
func (o *engineOpts) pingDuckDB(ctx context.Context, eng engine.Engine, ds *dataset.Dataset) error {
	for _, q := range ds.Questions {
		path, ok := ds.DuckDBPath(q.DBID)
		if !ok {
			continue
		}
		if _, err := eng.Query(ctx, path, "SELECT 1", engine.Limits{Timeout: 30 * time.Second}); err != nil {
			return fmt.Errorf("--engine duckdb: cannot run a query on %s: %w", path, err)
		}
		return nil
	}
	return fmt.Errorf("--engine duckdb: no question's database is a DuckDB file under %s (<db>.duckdb or <db>/<db>.duckdb)", ds.DBRoot)
}
