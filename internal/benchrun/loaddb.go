package benchrun

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/export"
)

// LoadSQLite copies one SQLite file into the server of o.Engine (postgres or mysql) as
// db_id id: a PostgreSQL schema or a MySQL database (load-db).
func (o *Engines) LoadSQLite(ctx context.Context, file, id string) (export.LoadStats, error) {
	if _, err := os.Stat(file); err != nil {
		return export.LoadStats{}, fmt.Errorf("database %s: %w", file, err)
	}
	name := o.DSNEnv
	driver, dialect := "pgx", export.Postgres
	if name == "" {
		name = DefaultPGDSNEnv
	}
	if o.Engine == EngineMySQL {
		driver, dialect = "mysql", export.MySQL
		if o.DSNEnv == "" {
			name = DefaultMySQLDSNEnv
		}
	}
	tmpl, err := engine.DSNFromEnv(name)
	if err != nil {
		return export.LoadStats{}, err
	}
	// MySQL connects without a default database: the one to load may not exist yet.
	dsn := strings.ReplaceAll(tmpl, engine.DBPlaceholder, id)
	if dialect == export.MySQL {
		dsn = strings.ReplaceAll(tmpl, engine.DBPlaceholder, "")
	}
	conn, err := sql.Open(driver, dsn)
	if err != nil {
		return export.LoadStats{}, fmt.Errorf("open %s server: %w", o.Engine, err)
	}
	defer conn.Close()
	if err := conn.PingContext(ctx); err != nil {
		// The driver's error may quote the DSN; say which variable instead.
		return export.LoadStats{}, fmt.Errorf("connect to the %s server of $%s: %w", o.Engine, name, engine.RedactDSNError(err, tmpl))
	}
	st, err := export.LoadSQLite(ctx, file, dialect, conn, id)
	if err != nil {
		return st, fmt.Errorf("load %s: %w", file, err)
	}
	return st, nil
}
