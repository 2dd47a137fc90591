package benchrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// ErrWrongDatabase is Prepare's error when a database under the db root is not the one
// the dataset describes: judging on it would score every question against other data
// (BIRD's questions on Spider's formula_1, which shares the name, scored EX 48.48).
var ErrWrongDatabase = errors.New("database does not match the dataset's schema")

// ErrWrongTables is Prepare's error when the tables file lists none of the dataset's
// databases: it is another dataset's, and exact set match would read its foreign keys
// from nowhere (Spider's dev with BIRD's dev_tables.json: ESM 67.08 instead of 70.06,
// silently; Spider's evaluation.py stops with a KeyError).
var ErrWrongTables = errors.New("tables file does not describe the dataset's databases")

// dbSource is where a run's databases are, for the checks below: SQLite files, DuckDB
// files or a server's databases. To check another kind of database, give its find and
// read.
type dbSource struct {
	// find says where a db_id's database is, as messages name it (a path, or the
	// server's database and the DSN's variable); false: missing (skipped and counted
	// elsewhere), not checked.
	find func(dbID string) (where string, ok bool)
	// read lists the tables and columns of the database find named.
	read func(ctx context.Context, dbID, where string) (*dbschema.Schema, error)
	// types: compare a column the tables file types integer or real with the database's
	// declaration (SQLite files only: a server's or DuckDB's types are their own, and
	// load-db translates them).
	types bool
	// hint is what a refusal tells the user to do.
	hint string
}

// sqliteFiles is the dataset's own SQLite files.
func sqliteFiles(ds *dataset.Dataset) dbSource {
	return dbSource{
		find: ds.DBPath,
		read: func(ctx context.Context, _, path string) (*dbschema.Schema, error) {
			return dbschema.Introspect(ctx, path)
		},
		types: true,
		hint:  "give the --db-root holding this dataset's databases",
	}
}

// checkDatabases compares each SQLite database the run will judge with the schema the
// dataset's tables file declares for its db_id: every declared table and column must be
// there (names compared without case, as SQLite does), and a column the file types
// "integer" or "real" must not be declared TEXT. A database may hold more. A dataset
// without a tables file gets checkGoldTables instead; a db_id the file does not list and
// a missing database (skipped and counted elsewhere) are not checked.
//
// The types matter: Spider's formula_1 has BIRD's tables and columns (both come from the
// Ergast data) but other data and other declarations (alt, number, position, laps,
// milliseconds, fastestLap, rank are TEXT). BIRD's tables files type columns as their
// databases declare them (integer, real, text, date); Spider's say "number" for any
// numeric-looking column, TEXT ones of its own formula_1 included, so "number" is not
// compared.
func checkDatabases(ctx context.Context, ds *dataset.Dataset) error {
	return checkDatabasesIn(ctx, ds, sqliteFiles(ds))
}

// checkDatabasesIn is checkDatabases on the databases src finds.
func checkDatabasesIn(ctx context.Context, ds *dataset.Dataset, src dbSource) error {
	if ds.Tables == "" {
		return checkGoldTables(ctx, ds, src)
	}
	declared, err := dbschema.ReadTablesJSON(ds.Tables)
	if errors.Is(err, os.ErrNotExist) {
		return checkGoldTables(ctx, ds, src)
	}
	if err != nil {
		return fmt.Errorf("check databases against %s: %w", ds.Tables, err)
	}
	if err := checkTablesListed(ds, declared); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, q := range ds.Questions {
		if seen[q.DBID] {
			continue
		}
		seen[q.DBID] = true
		want := declared[q.DBID]
		where, ok := src.find(q.DBID)
		if want == nil || !ok {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		got, err := src.read(ctx, q.DBID, where)
		if err != nil {
			return fmt.Errorf("check database %s against %s: %w", where, ds.Tables, err)
		}
		if got == nil || len(got.Tables) == 0 {
			// Not another database: none at all (a schema load-db never made).
			return fmt.Errorf("%w: %s holds no tables, and %s declares %d for %s: the database is missing or empty; %s",
				ErrWrongDatabase, where, ds.Tables, len(want.Tables), q.DBID, src.hint)
		}
		if missing := missingSchema(want, got, src.types); len(missing) > 0 {
			more := ""
			if len(missing) > 3 {
				more = fmt.Sprintf(" and %d more", len(missing)-3)
				missing = missing[:3]
			}
			return fmt.Errorf("%w: %s is not the %s that %s describes (%s%s): it is another database of the same name; %s",
				ErrWrongDatabase, where, q.DBID, ds.Tables, strings.Join(missing, "; "), more, src.hint)
		}
	}
	return nil
}

// checkTablesListed refuses a tables file that lists none of the db_ids of ds's
// questions. One that lists some is kept: those it lacks are not checked, as before.
func checkTablesListed(ds *dataset.Dataset, declared map[string]*dbschema.Schema) error {
	var ids []string
	seen := map[string]bool{}
	for _, q := range ds.Questions {
		if seen[q.DBID] {
			continue
		}
		if declared[q.DBID] != nil {
			return nil
		}
		seen[q.DBID] = true
		ids = append(ids, q.DBID)
	}
	if len(ids) == 0 {
		return nil
	}
	more := ""
	if len(ids) > 3 {
		more = fmt.Sprintf(" and %d more", len(ids)-3)
		ids = ids[:3]
	}
	return fmt.Errorf("%w: %s lists none of the dataset's databases (%s%s): it is another dataset's; give this one's own tables file (--tables)",
		ErrWrongTables, ds.Tables, strings.Join(ids, ", "), more)
}

// missingSchema lists what of want got lacks or, with types, declares otherwise, in
// want's order.
func missingSchema(want, got *dbschema.Schema, types bool) []string {
	var out []string
	for _, t := range want.Tables {
		if strings.HasPrefix(strings.ToLower(t.Name), "sqlite_") {
			continue // SQLite's own (sqlite_sequence), which introspection leaves out
		}
		gt := got.Table(t.Name)
		if gt == nil {
			out = append(out, "no table "+t.Name)
			continue
		}
		var cols []string
		for _, c := range t.Columns {
			switch gc := gt.Column(c.Name); {
			case gc == nil:
				cols = append(cols, "no column "+t.Name+"."+c.Name)
			case types && (c.Type == "integer" || c.Type == "real") && dbschema.AffinityOf(gc.Type) == dbschema.AffinityText:
				cols = append(cols, fmt.Sprintf("column %s.%s is %s, not %s", t.Name, c.Name, gc.Type, c.Type))
			}
		}
		sort.Strings(cols)
		out = append(out, cols...)
	}
	return out
}

// serverColumns lists the tables and columns of the database a server engine reaches for
// a db_id (its current schema: PostgreSQL's search path, MySQL's database).
var serverColumns = map[string]string{
	EnginePostgres: "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()",
	EngineMySQL:    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = DATABASE()",
}

// checkServerDatabases is checkDatabases on PostgreSQL and MySQL: every table and column
// the tables file declares for a db_id must be in the server's database of that name
// (compared without case; types are not compared, as a server's types are its own and
// load-db translates them); without a tables file, the tables the golds name
// (checkGoldTables). dsnEnv names the variable holding the server's DSN, for messages.
func checkServerDatabases(ctx context.Context, eng engine.Engine, engineName, dsnEnv string, ds *dataset.Dataset) error {
	query, ok := serverColumns[engineName]
	if !ok {
		return nil
	}
	return checkDatabasesIn(ctx, ds, dbSource{
		find: func(dbID string) (string, bool) {
			return fmt.Sprintf("the %s database %s at $%s", engineName, dbID, dsnEnv), true
		},
		read: func(ctx context.Context, dbID, _ string) (*dbschema.Schema, error) {
			return catalogSchema(ctx, eng, dbID, dbID, query)
		},
		hint: "load this dataset's database with load-db, or point --dsn-env at the server holding it",
	})
}

// duckDBColumns lists the tables and views of the DuckDB file the engine opened, in any
// of its schemas (the file's own catalog, not DuckDB's system or temp catalogs).
const duckDBColumns = "SELECT table_name, column_name FROM information_schema.columns WHERE table_catalog = current_database()"

// checkDuckDBDatabases is checkDatabases on --engine duckdb's files (<db>.duckdb or
// <db>/<db>.duckdb under the db root): tables and columns as on a server (DuckDB's types
// are its own), or without a tables file the tables the golds name.
func checkDuckDBDatabases(ctx context.Context, eng engine.Engine, ds *dataset.Dataset) error {
	return checkDatabasesIn(ctx, ds, dbSource{
		find: ds.DuckDBPath,
		read: func(ctx context.Context, dbID, path string) (*dbschema.Schema, error) {
			return catalogSchema(ctx, eng, dbID, path, duckDBColumns)
		},
		hint: "give the --db-root holding this dataset's DuckDB files",
	})
}

// catalogSchema runs query (rows of table name, column name) on eng's database db and
// gathers the schema of dbID from it.
func catalogSchema(ctx context.Context, eng engine.Engine, dbID, db, query string) (*dbschema.Schema, error) {
	res, err := eng.Query(ctx, db, query, engine.Limits{Timeout: 30 * time.Second, MaxRows: 1 << 20})
	if err != nil {
		return nil, err
	}
	got := &dbschema.Schema{DBID: dbID}
	for i := 0; i < res.NumRows() && res.NumCols() >= 2; i++ {
		tn, cn := textOf(res.Value(i, 0)), textOf(res.Value(i, 1))
		t := got.Table(tn)
		if t == nil {
			t = &dbschema.Table{Name: tn}
			got.Tables = append(got.Tables, t)
		}
		t.Columns = append(t.Columns, &dbschema.Column{Name: cn})
	}
	return got, nil
}

// textOf is a catalog value as text (drivers give names as string or bytes).
func textOf(v any) string {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return fmt.Sprint(v)
}
