package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/spf13/cobra"
)

// newLoadDBCmd: `load-db` copies SQLite databases into a PostgreSQL or MySQL server, one
// schema (PostgreSQL) or database (MySQL) per db_id, so `eval --engine` can run a
// benchmark's questions there.
func newLoadDBCmd(e *env) *cobra.Command {
	var o engineOpts
	var dbID string
	cmd := &cobra.Command{
		Use:   "load-db --engine postgres|mysql [--dsn-env VAR] FILE.sqlite ...",
		Short: "Load SQLite databases into a PostgreSQL or MySQL server (a schema / database per db_id)",
		Long: `Copies every table of each SQLite file into the server the DSN template names, in a
PostgreSQL schema / MySQL database called after the file (db_id = file name without extension),
replacing tables of the same names. Column types come from the stored values (BIGINT, DOUBLE,
TEXT, BLOB/BYTEA); primary keys are kept, foreign keys left out. The DSN template is read
from an environment variable (--dsn-env; default NL2SQLBENCH_PG_DSN / NL2SQLBENCH_MYSQL_DSN),
never from the command line; its {db} stands for the db_id: for PostgreSQL put it in
search_path, for MySQL in the database position. The role needs CREATE rights here; eval
should then use one that can only read.`,
		Example: `  export NL2SQLBENCH_PG_DSN='postgres://loader:PASSWORD@localhost:5432/bird?search_path={db}'
  nl2sqlbench load-db --engine postgres ../shared/data/bird/dev_databases/superhero/superhero.sqlite`,
		RunE: func(cmd *cobra.Command, files []string) error {
			if len(files) == 0 {
				return usagef("load-db needs at least one SQLite file")
			}
			if dbID != "" && len(files) > 1 {
				return usagef("--db-id names one database; %d files given", len(files))
			}
			if err := o.Check(); err != nil {
				return err
			}
			if o.Engine != enginePostgres && o.Engine != engineMySQL {
				return usagef("load-db loads into postgres or mysql, not %q", o.Engine)
			}
			for _, f := range files {
				id := dbID
				if id == "" {
					id = benchrun.TrimExt(filepath.Base(f))
				}
				if err := loadDB(cmd.Context(), e, o, f, id); err != nil {
					return err
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Engine, "engine", "", "server to load into: postgres or mysql")
	f.StringVar(&o.DSNEnv, "dsn-env", "", "environment variable holding the DSN template (default "+defaultPGDSNEnv+" / "+defaultMySQLDSNEnv+")")
	f.StringVar(&dbID, "db-id", "", "schema / database name (default: the file name without extension)")
	return cmd
}

// loadDB loads one SQLite file as db_id id (benchrun.Engines.LoadSQLite) and says so.
func loadDB(ctx context.Context, e *env, o engineOpts, file, id string) error {
	t0 := time.Now()
	st, err := o.LoadSQLite(ctx, file, id)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: %d tables, %d rows loaded into %s in %.1fs", id, st.Tables, st.Rows, o.Engine, time.Since(t0).Seconds())
	if st.Repaired > 0 {
		fmt.Fprintf(e.stdout, " (%d text values had bytes PostgreSQL cannot store replaced)", st.Repaired)
	}
	fmt.Fprintln(e.stdout)
	return nil
}
