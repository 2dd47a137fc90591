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
	if ds.Tables == "" {
		return checkGoldTables(ctx, ds)
	}
	declared, err := dbschema.ReadTablesJSON(ds.Tables)
	if errors.Is(err, os.ErrNotExist) {
		return checkGoldTables(ctx, ds)
	}
	if err != nil {
		return fmt.Errorf("check databases against %s: %w", ds.Tables, err)
	}
	seen := map[string]bool{}
	for _, q := range ds.Questions {
		if seen[q.DBID] {
			continue
		}
		seen[q.DBID] = true
		want := declared[q.DBID]
		path, ok := ds.DBPath(q.DBID)
		if want == nil || !ok {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		got, err := dbschema.Introspect(ctx, path)
		if err != nil {
			return fmt.Errorf("check database %s against %s: %w", path, ds.Tables, err)
		}
		if missing := missingSchema(want, got); len(missing) > 0 {
			more := ""
			if len(missing) > 3 {
				more = fmt.Sprintf(" and %d more", len(missing)-3)
				missing = missing[:3]
			}
			return fmt.Errorf("%w: %s is not the %s that %s describes (%s%s): it is another database of the same name; give the --db-root holding this dataset's databases",
				ErrWrongDatabase, path, q.DBID, ds.Tables, strings.Join(missing, "; "), more)
		}
	}
	return nil
}

// missingSchema lists what of want got lacks or declares otherwise, in want's order.
func missingSchema(want, got *dbschema.Schema) []string {
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
			case (c.Type == "integer" || c.Type == "real") && dbschema.AffinityOf(gc.Type) == dbschema.AffinityText:
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
// load-db translates them). A db_id the file does not list is not checked.
func checkServerDatabases(ctx context.Context, eng engine.Engine, engineName string, ds *dataset.Dataset) error {
	query, ok := serverColumns[engineName]
	if !ok || ds.Tables == "" {
		return nil
	}
	declared, err := dbschema.ReadTablesJSON(ds.Tables)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("check databases against %s: %w", ds.Tables, err)
	}
	seen := map[string]bool{}
	for _, q := range ds.Questions {
		want := declared[q.DBID]
		if seen[q.DBID] || want == nil {
			continue
		}
		seen[q.DBID] = true
		res, err := eng.Query(ctx, q.DBID, query, engine.Limits{Timeout: 30 * time.Second, MaxRows: 1 << 20})
		if err != nil {
			return fmt.Errorf("--engine %s: check database %s against %s: %w", engineName, q.DBID, ds.Tables, err)
		}
		got := &dbschema.Schema{DBID: q.DBID}
		for i := 0; i < res.NumRows() && res.NumCols() >= 2; i++ {
			tn, cn := textOf(res.Value(i, 0)), textOf(res.Value(i, 1))
			t := got.Table(tn)
			if t == nil {
				t = &dbschema.Table{Name: tn}
				got.Tables = append(got.Tables, t)
			}
			t.Columns = append(t.Columns, &dbschema.Column{Name: cn})
		}
		if missing := missingSchema(want, got); len(missing) > 0 {
			more := ""
			if len(missing) > 3 {
				more = fmt.Sprintf(" and %d more", len(missing)-3)
				missing = missing[:3]
			}
			return fmt.Errorf("%w: the %s database for %s is not the one %s describes (%s%s); load this dataset's database with load-db, or point --dsn-env at the server holding it",
				ErrWrongDatabase, engineName, q.DBID, ds.Tables, strings.Join(missing, "; "), more)
		}
	}
	return nil
}

// textOf is a catalog value as text (drivers give names as string or bytes).
func textOf(v any) string {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return fmt.Sprint(v)
}
