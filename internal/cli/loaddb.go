package cli

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/export"
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
			if err := o.check(); err != nil {
				return err
			}
			if o.Engine != enginePostgres && o.Engine != engineMySQL {
				return usagef("load-db loads into postgres or mysql, not %q", o.Engine)
			}
			for _, f := range files {
				id := dbID
				if id == "" {
					id = trimExt(filepath.Base(f))
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

// loadDB loads one SQLite file as db_id id.
func loadDB(ctx context.Context, e *env, o engineOpts, file, id string) error {
	if _, err := os.Stat(file); err != nil {
		return fmt.Errorf("database %s: %w", file, err)
	}
	name := o.DSNEnv
	driver, dialect := "pgx", export.Postgres
	if name == "" {
		name = defaultPGDSNEnv
	}
	if o.Engine == engineMySQL {
		driver, dialect = "mysql", export.MySQL
		if o.DSNEnv == "" {
			name = defaultMySQLDSNEnv
		}
	}
	tmpl, err := engine.DSNFromEnv(name)
	if err != nil {
		return err
	}
	// MySQL connects without a default database: the one to load may not exist yet.
	dsn := strings.ReplaceAll(tmpl, engine.DBPlaceholder, id)
	if dialect == export.MySQL {
		dsn = strings.ReplaceAll(tmpl, engine.DBPlaceholder, "")
	}
	conn, err := sql.Open(driver, dsn)
	if err != nil {
		return fmt.Errorf("open %s server: %w", o.Engine, err)
	}
	defer conn.Close()
	if err := conn.PingContext(ctx); err != nil {
		// The driver's error may quote the DSN; say which variable instead.
		return fmt.Errorf("connect to the %s server of $%s: %w", o.Engine, name, engine.RedactDSNError(err, tmpl))
	}
	t0 := time.Now()
	st, err := export.LoadSQLite(ctx, file, dialect, conn, id)
	if err != nil {
		return fmt.Errorf("load %s: %w", file, err)
	}
	fmt.Fprintf(e.stdout, "%s: %d tables, %d rows loaded into %s in %.1fs", id, st.Tables, st.Rows, o.Engine, time.Since(t0).Seconds())
	if st.Repaired > 0 {
		fmt.Fprintf(e.stdout, " (%d text values had bytes PostgreSQL cannot store replaced)", st.Repaired)
	}
	fmt.Fprintln(e.stdout)
	return nil
}
