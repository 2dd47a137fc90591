package cli

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
)

// Engine names accepted by --engine and --gold-engine.
const (
	engineSQLite   = "sqlite"
	enginePostgres = "postgres"
	engineMySQL    = "mysql"
	engineSQLPP    = "sqlpp"
	engineDuckDB   = "duckdb"
	goldSame       = "same"
)

// Default environment variables holding the server DSN templates and the SQL++ password:
// secrets live in the environment (or a file the shell sources), never on a command line.
const (
	defaultPGDSNEnv    = "NL2SQLBENCH_PG_DSN"
	defaultMySQLDSNEnv = "NL2SQLBENCH_MYSQL_DSN"
	defaultSQLPPPWEnv  = "NL2SQLBENCH_SQLPP_PASSWORD"
)

// engineOpts are the flags choosing where queries run. eval and collect share them.
type engineOpts struct {
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

func (o *engineOpts) bind(f *pflag.FlagSet) {
	f.StringVar(&o.Engine, "engine", engineSQLite, "where predictions run: sqlite, postgres, mysql, sqlpp (Couchbase Query Service) or duckdb (<db>.duckdb files under --db-root)")
	f.StringVar(&o.DuckDBLib, "duckdb-lib", "", "libduckdb.so for DuckDB files (default $"+engine.LibDuckDBEnv+"; bash .ci/duckdb.sh fetches one)")
	f.StringVar(&o.DSNEnv, "dsn-env", "", "environment variable holding the server DSN template, {db} standing for the db_id (default "+defaultPGDSNEnv+" / "+defaultMySQLDSNEnv+")")
	f.StringVar(&o.GoldEngine, "gold-engine", "", "where gold SQL runs: same (the --engine) or sqlite (default: sqlite for --engine sqlpp, else same)")
	f.StringVar(&o.SQLPPEndpoint, "sqlpp-endpoint", "", "Couchbase query service URL for --engine sqlpp, e.g. http://localhost:8093")
	f.StringVar(&o.SQLPPUser, "sqlpp-user", "", "Couchbase user for --engine sqlpp")
	f.StringVar(&o.SQLPPPWEnv, "sqlpp-password-env", defaultSQLPPPWEnv, "environment variable holding the Couchbase password")
	f.StringVar(&o.SQLPPBucket, "sqlpp-bucket", "", "Couchbase bucket whose scopes are the databases (export-docs layout); empty: statements name keyspaces fully")
}

// check validates the flags without opening anything.
func (o *engineOpts) check() error {
	switch o.Engine {
	case "", engineSQLite, enginePostgres, engineMySQL, engineSQLPP, engineDuckDB:
	case "postgresql":
		o.Engine = enginePostgres
	case "mariadb":
		o.Engine = engineMySQL
	default:
		return usagef("--engine: unknown engine %q (want sqlite, postgres, mysql, sqlpp or duckdb)", o.Engine)
	}
	if o.Engine == "" {
		o.Engine = engineSQLite
	}
	switch o.GoldEngine {
	case "":
		o.GoldEngine = goldSame
		if o.Engine == engineSQLPP {
			o.GoldEngine = engineSQLite
		}
	case goldSame, engineSQLite:
	default:
		return usagef("--gold-engine: %q (want same or sqlite)", o.GoldEngine)
	}
	if o.Engine == engineSQLPP && o.GoldEngine == goldSame {
		return usagef("--gold-engine same with --engine sqlpp: gold SQL is SQLite SQL; use --gold-engine sqlite")
	}
	if o.Engine == engineSQLPP && o.SQLPPEndpoint == "" {
		return usagef("--engine sqlpp needs --sqlpp-endpoint")
	}
	return nil
}

// server reports whether predictions run somewhere other than the dataset's SQLite files.
func (o *engineOpts) server() bool { return o.Engine != "" && o.Engine != engineSQLite }

// engineOpts is the run layer's Server when --engine is not sqlite.
var _ benchrun.Server = (*engineOpts)(nil)

// Open opens the prediction engine for a non-SQLite --engine: it returns the engine and
// the judge options that send predictions there (and gold SQL where --gold-engine
// says). sqlite is the already-open SQLite engine for gold SQL.
func (o *engineOpts) Open(workers int, sqlite engine.Engine) (engine.Engine, judge.Locator, *judge.Target, error) {
	var eng engine.Engine
	switch o.Engine {
	case enginePostgres, engineMySQL:
		name := o.DSNEnv
		if name == "" {
			name = defaultPGDSNEnv
			if o.Engine == engineMySQL {
				name = defaultMySQLDSNEnv
			}
		}
		dsn, err := engine.DSNFromEnv(name)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("--engine %s: %w (export it, e.g. from a mode-600 file; see the README)", o.Engine, err)
		}
		if eng, err = engine.OpenServer(o.Engine, dsn, max(workers, 1)); err != nil {
			return nil, nil, nil, err
		}
	case engineDuckDB:
		return o.openDuckDB(workers, sqlite)
	case engineSQLPP:
		s, err := engine.NewSQLPP(o.SQLPPEndpoint, o.SQLPPUser, os.Getenv(o.SQLPPPWEnv), o.SQLPPBucket)
		if err != nil {
			return nil, nil, nil, err
		}
		eng = s
	default:
		return nil, nil, nil, fmt.Errorf("engine %q is not a server engine", o.Engine)
	}
	var gold *judge.Target
	if o.GoldEngine == engineSQLite {
		gold = &judge.Target{Engine: sqlite}
	}
	return eng, judge.ByDBID, gold, nil
}

// TaskDSN is the DSN template of the server where tasks on a database copy get their
// template and copies (livesql:, evalbench: with --engine postgres or mysql).
func (o *engineOpts) TaskDSN() (string, error) {
	name := o.DSNEnv
	if name == "" {
		name = defaultPGDSNEnv
		if o.Engine == engineMySQL {
			name = defaultMySQLDSNEnv
		}
	}
	dsn, err := engine.DSNFromEnv(name)
	if err != nil {
		return "", fmt.Errorf("--engine %s: %w (export it, e.g. from a mode-600 file; see the README)", o.Engine, err)
	}
	return dsn, nil
}

var _ benchrun.TaskServer = (*engineOpts)(nil)

// goldName is where gold SQL runs, for the summary ("" when everything is SQLite).
func (o *engineOpts) goldName() string {
	switch {
	case !o.server():
		return ""
	case o.GoldEngine == engineSQLite:
		return engineSQLite
	}
	return o.Engine
}

// Ping runs SELECT 1 on the first question's database, so an unreachable server
// or a refused login stops the run at once instead of turning every question into a
// gold_error.
func (o *engineOpts) Ping(ctx context.Context, eng engine.Engine, ds *dataset.Dataset) error {
	if len(ds.Questions) == 0 {
		return nil
	}
	db := ds.Questions[0].DBID
	if o.Engine == engineDuckDB {
		return o.pingDuckDB(ctx, eng, ds)
	}
	if _, err := eng.Query(ctx, db, "SELECT 1", engine.Limits{Timeout: 30 * time.Second}); err != nil {
		return fmt.Errorf("--engine %s: cannot run a query on database %q: %w", o.Engine, db, err)
	}
	return nil
}
