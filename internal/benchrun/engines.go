package benchrun

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
)

// Engine names accepted by --engine and --gold-engine.
const (
	EngineSQLite   = "sqlite"
	EnginePostgres = "postgres"
	EngineMySQL    = "mysql"
	EngineSQLPP    = "sqlpp"
	EngineDuckDB   = "duckdb"
	GoldSame       = "same"
)

// Default environment variables holding the server DSN templates and the SQL++ password:
// secrets live in the environment (or a file the shell sources), never on a command line.
const (
	DefaultPGDSNEnv    = "NL2SQLBENCH_PG_DSN"
	DefaultMySQLDSNEnv = "NL2SQLBENCH_MYSQL_DSN"
	DefaultSQLPPPWEnv  = "NL2SQLBENCH_SQLPP_PASSWORD"
)

// Engines is where queries run, as eval's and collect's engine flags say (the cli binds
// them): it opens the prediction engine (a Server) and names where task copies are made.
type Engines struct {
	Engine        string // sqlite (default), postgres, mysql or sqlpp
	DSNEnv        string // variable holding the DSN template ({db} = db_id); default per engine
	GoldEngine    string // where gold SQL runs: same (default; sqlite for sqlpp) or sqlite
	SQLPPEndpoint string
	SQLPPUser     string
	SQLPPPWEnv    string
	SQLPPBucket   string
	DuckDBLib     string           // --duckdb-lib: libduckdb.so ("": $NL2SQLBENCH_LIBDUCKDB)
	duckDS        *dataset.Dataset // where --engine duckdb finds <db>.duckdb files (UseDataset)
}

// Check validates the flags without opening anything.
func (o *Engines) Check() error {
	switch o.Engine {
	case "", EngineSQLite, EnginePostgres, EngineMySQL, EngineSQLPP, EngineDuckDB:
	case "postgresql":
		o.Engine = EnginePostgres
	case "mariadb":
		o.Engine = EngineMySQL
	default:
		return configf("--engine: unknown engine %q (want sqlite, postgres, mysql, sqlpp or duckdb)", o.Engine)
	}
	if o.Engine == "" {
		o.Engine = EngineSQLite
	}
	switch o.GoldEngine {
	case "":
		o.GoldEngine = GoldSame
		if o.Engine == EngineSQLPP {
			o.GoldEngine = EngineSQLite
		}
	case GoldSame, EngineSQLite:
	default:
		return configf("--gold-engine: %q (want same or sqlite)", o.GoldEngine)
	}
	if o.Engine == EngineSQLPP && o.GoldEngine == GoldSame {
		return configf("--gold-engine same with --engine sqlpp: gold SQL is SQLite SQL; use --gold-engine sqlite")
	}
	if o.Engine == EngineSQLPP && o.SQLPPEndpoint == "" {
		return configf("--engine sqlpp needs --sqlpp-endpoint")
	}
	return nil
}

// Server reports whether predictions run somewhere other than the dataset's SQLite files.
func (o *Engines) Server() bool { return o.Engine != "" && o.Engine != EngineSQLite }

// Engines is the Server when --engine is not sqlite.
var _ Server = (*Engines)(nil)

// Open opens the prediction engine for a non-SQLite --engine: it returns the engine and
// the judge options that send predictions there (and gold SQL where --gold-engine
// says). sqlite is the already-open SQLite engine for gold SQL.
func (o *Engines) Open(workers int, sqlite engine.Engine) (engine.Engine, judge.Locator, *judge.Target, error) {
	var eng engine.Engine
	switch o.Engine {
	case EnginePostgres, EngineMySQL:
		dsn, err := engine.DSNFromEnv(o.dsnEnvName())
		if err != nil {
			return nil, nil, nil, fmt.Errorf("--engine %s: %w (export it, e.g. from a mode-600 file; see the README)", o.Engine, err)
		}
		if eng, err = engine.OpenServer(o.Engine, dsn, max(workers, 1)); err != nil {
			return nil, nil, nil, err
		}
	case EngineDuckDB:
		return o.openDuckDB(workers, sqlite)
	case EngineSQLPP:
		s, err := engine.NewSQLPP(o.SQLPPEndpoint, o.SQLPPUser, os.Getenv(o.SQLPPPWEnv), o.SQLPPBucket)
		if err != nil {
			return nil, nil, nil, err
		}
		eng = s
	default:
		return nil, nil, nil, fmt.Errorf("engine %q is not a server engine", o.Engine)
	}
	var gold *judge.Target
	if o.GoldEngine == EngineSQLite {
		gold = &judge.Target{Engine: sqlite}
	}
	return eng, judge.ByDBID, gold, nil
}

// TaskDSN is the DSN template of the server where tasks on a database copy get their
// template and copies (livesql:, evalbench: with --engine postgres or mysql).
func (o *Engines) TaskDSN() (string, error) {
	dsn, err := engine.DSNFromEnv(o.dsnEnvName())
	if err != nil {
		return "", fmt.Errorf("--engine %s: %w (export it, e.g. from a mode-600 file; see the README)", o.Engine, err)
	}
	return dsn, nil
}

var _ TaskServer = (*Engines)(nil)

// dsnEnvName is the variable holding the server's DSN: --dsn-env, or the engine's default.
func (o *Engines) dsnEnvName() string {
	switch {
	case o.DSNEnv != "":
		return o.DSNEnv
	case o.Engine == EngineMySQL:
		return DefaultMySQLDSNEnv
	}
	return DefaultPGDSNEnv
}

// GoldName is where gold SQL runs, for the summary ("" when everything is SQLite).
func (o *Engines) GoldName() string {
	switch {
	case !o.Server():
		return ""
	case o.GoldEngine == EngineSQLite:
		return EngineSQLite
	}
	return o.Engine
}

// Ping runs SELECT 1 on the first question's database, so an unreachable server
// or a refused login stops the run at once instead of turning every question into a
// gold_error.
func (o *Engines) Ping(ctx context.Context, eng engine.Engine, ds *dataset.Dataset) error {
	if len(ds.Questions) == 0 {
		return nil
	}
	db := ds.Questions[0].DBID
	if o.Engine == EngineDuckDB {
		return o.pingDuckDB(ctx, eng, ds)
	}
	if _, err := eng.Query(ctx, db, "SELECT 1", engine.Limits{Timeout: 30 * time.Second}); err != nil {
		return fmt.Errorf("--engine %s: cannot run a query on database %q: %w", o.Engine, db, err)
	}
	return checkServerDatabases(ctx, eng, o.Engine, o.dsnEnvName(), ds) // the databases are the ones the dataset describes
}

// --engine duckdb runs predictions (and, with --gold-engine same, gold SQL) on DuckDB
// files under the dataset's root: <db>.duckdb or <db>/<db>.duckdb. The library is
// loaded at run time (--duckdb-lib or $NL2SQLBENCH_LIBDUCKDB).

var _ DatasetServer = (*Engines)(nil)

// UseDataset remembers the dataset whose root holds the DuckDB files.
func (o *Engines) UseDataset(ds *dataset.Dataset) { o.duckDS = ds }

// openDuckDB is Open for --engine duckdb.
func (o *Engines) openDuckDB(workers int, sqlite engine.Engine) (engine.Engine, judge.Locator, *judge.Target, error) {
	ds := o.duckDS
	if ds == nil {
		return nil, nil, nil, fmt.Errorf("--engine duckdb: no dataset to find the DuckDB files in")
	}
	threads := 0 // the engine's default: the CPUs, at most 4
	if workers > 1 {
		threads = 1 // workers queries at once each get a thread, not a thread per CPU
	}
	eng, err := engine.NewDuckDB(engine.DuckDBOptions{Lib: o.DuckDBLib, Threads: threads, Isolate: engine.DuckDBIsolationSupported})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("--engine duckdb: %w", err)
	}
	var gold *judge.Target
	if o.GoldEngine == EngineSQLite {
		gold = &judge.Target{Engine: sqlite}
	}
	return eng, ds.DuckDBPath, gold, nil
}

// pingDuckDB opens the first question's DuckDB file and runs SELECT 1 there, so that a
// run whose --db-root holds no DuckDB files stops at once, then checks each file against
// the dataset's schema (checkDuckDBDatabases).
func (o *Engines) pingDuckDB(ctx context.Context, eng engine.Engine, ds *dataset.Dataset) error {
	for _, q := range ds.Questions {
		path, ok := ds.DuckDBPath(q.DBID)
		if !ok {
			continue
		}
		if _, err := eng.Query(ctx, path, "SELECT 1", engine.Limits{Timeout: 30 * time.Second}); err != nil {
			return fmt.Errorf("--engine duckdb: cannot run a query on %s: %w", path, err)
		}
		return checkDuckDBDatabases(ctx, eng, ds) // the databases are the ones the dataset describes
	}
	return fmt.Errorf("--engine duckdb: no question's database is a DuckDB file under %s (<db>.duckdb or <db>/<db>.duckdb)", ds.DBRoot)
}
