package cli

import (
	"github.com/spf13/pflag"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// engineOpts are the flags choosing where queries run (benchrun.Engines). eval and
// collect share them.
type engineOpts = benchrun.Engines

// Engine names and default DSN variables, as benchrun.Engines takes them.
const (
	engineSQLite       = benchrun.EngineSQLite
	enginePostgres     = benchrun.EnginePostgres
	engineMySQL        = benchrun.EngineMySQL
	engineSQLPP        = benchrun.EngineSQLPP
	defaultPGDSNEnv    = benchrun.DefaultPGDSNEnv
	defaultMySQLDSNEnv = benchrun.DefaultMySQLDSNEnv
	defaultSQLPPPWEnv  = benchrun.DefaultSQLPPPWEnv
)

// bindEngineFlags declares the engine flags into o.
func bindEngineFlags(f *pflag.FlagSet, o *engineOpts) {
	f.StringVar(&o.Engine, "engine", engineSQLite, "where predictions run: sqlite, postgres, mysql, sqlpp (Couchbase Query Service) or duckdb (<db>.duckdb files under --db-root)")
	f.StringVar(&o.DuckDBLib, "duckdb-lib", "", "libduckdb.so for DuckDB files (default $"+engine.LibDuckDBEnv+"; bash .ci/duckdb.sh fetches one)")
	f.StringVar(&o.DSNEnv, "dsn-env", "", "environment variable holding the server DSN template, {db} standing for the db_id (default "+defaultPGDSNEnv+" / "+defaultMySQLDSNEnv+")")
	f.StringVar(&o.GoldEngine, "gold-engine", "", "where gold SQL runs: same (the --engine) or sqlite (default: sqlite for --engine sqlpp, else same)")
	f.StringVar(&o.SQLPPEndpoint, "sqlpp-endpoint", "", "Couchbase query service URL for --engine sqlpp, e.g. http://localhost:8093")
	f.StringVar(&o.SQLPPUser, "sqlpp-user", "", "Couchbase user for --engine sqlpp")
	f.StringVar(&o.SQLPPPWEnv, "sqlpp-password-env", defaultSQLPPPWEnv, "environment variable holding the Couchbase password")
	f.StringVar(&o.SQLPPBucket, "sqlpp-bucket", "", "Couchbase bucket whose scopes are the databases (export-docs layout); empty: statements name keyspaces fully")
}
