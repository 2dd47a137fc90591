package benchrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// catalogEngine answers any query with the catalog rows (table, column) of the
// database it is asked about, as information_schema.columns would.
type catalogEngine struct{ dbs map[string][][2]string }

func (c catalogEngine) Query(_ context.Context, db, _ string, _ engine.Limits) (*engine.Result, error) {
	rows, ok := c.dbs[db]
	if !ok {
		return nil, fmt.Errorf("database %q does not exist", db)
	}
	var out [][]any
	for _, r := range rows {
		out = append(out, []any{r[0], []byte(r[1])})
	}
	return engine.NewResult([]string{"table_name", "column_name"}, out), nil
}

func (catalogEngine) Close() error { return nil }

// catalogOf is the (table, column) rows of the real SQLite database at path.
func catalogOf(tb testing.TB, path string) [][2]string {
	tb.Helper()
	s, err := dbschema.Introspect(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	var rows [][2]string
	for _, t := range s.Tables {
		for _, c := range t.Columns {
			rows = append(rows, [2]string{t.Name, c.Name})
		}
	}
	return rows
}

// spiderOn is Spider dev narrowed to the questions of dbIDs, with the tables file
// (tables) or without it.
func spiderOn(tb testing.TB, data, root string, tables bool, dbIDs ...string) *dataset.Dataset {
	tb.Helper()
	ds, err := dataset.Load(context.Background(), "spider:"+filepath.Join(data, "spider"), dataset.Options{DBRoot: root, NoHardness: true})
	if err != nil {
		tb.Fatal(err)
	}
	keep := ds.Questions[:0]
	for _, q := range ds.Questions {
		for _, id := range dbIDs {
			if q.DBID == id {
				keep = append(keep, q)
			}
		}
	}
	ds.Questions = keep
	if !tables {
		ds.Tables = ""
	}
	return ds
}

// TestCheckServerDatabasesWithoutTables: a PostgreSQL or MySQL run on a dataset without
// a tables file was judged on whatever database bore the db_id (the check needed the
// file). Now the tables the golds name must be there: the right catalog passes, another
// database of the same name is refused naming the DSN's variable, the db_id, a question
// and the table; a database the server lacks is left to the run (judged as before).
func TestCheckServerDatabasesWithoutTables(t *testing.T) {
	data := sharedData(t)
	ctx := context.Background()
	real := catalogOf(t, filepath.Join(data, "spider", "database", "concert_singer", "concert_singer.sqlite"))
	for _, tables := range []bool{false, true} {
		ds := spiderOn(t, data, "", tables, "concert_singer")
		if err := checkServerDatabases(ctx, catalogEngine{map[string][][2]string{"concert_singer": real}}, EnginePostgres, "PGX", ds); err != nil {
			t.Errorf("tables file %v, the right database: %v", tables, err)
		}
		other := catalogEngine{map[string][][2]string{"concert_singer": {{"invoices", "id"}, {"invoices", "total"}}}}
		err := checkServerDatabases(ctx, other, EngineMySQL, "MYX", ds)
		if !errors.Is(err, ErrWrongDatabase) || !strings.Contains(err.Error(), "$MYX") || !strings.Contains(err.Error(), "concert_singer") {
			t.Errorf("tables file %v, another database: err = %v, want ErrWrongDatabase naming $MYX and concert_singer", tables, err)
		}
		if !tables && (!strings.Contains(err.Error(), "question ") || !strings.Contains(err.Error(), "no table ")) {
			t.Errorf("no tables file, another database: %v, want a question and the table named", err)
		}
	}
	ds := spiderOn(t, data, "", false, "concert_singer")
	if err := checkServerDatabases(ctx, catalogEngine{}, EnginePostgres, "PGX", ds); err != nil {
		t.Errorf("no tables file, database missing on the server: %v, want it left to the run", err)
	}
}

// TestCheckDuckDBDatabases: --engine duckdb judged on whatever DuckDB file bore the
// db_id, with or without a tables file. Each file is now checked like an SQLite one
// (names only): a copy of concert_singer's schema passes both checks, another
// database of that name is refused naming its path (and, without a tables file, the
// question and the table).
func TestCheckDuckDBDatabases(t *testing.T) {
	data := sharedData(t)
	lib := os.Getenv(engine.LibDuckDBEnv)
	if lib == "" {
		t.Skipf("%s not set: no DuckDB library (export %s=\"$(bash .ci/duckdb.sh)\")", engine.LibDuckDBEnv, engine.LibDuckDBEnv)
	}
	ctx := context.Background()
	eng, err := engine.NewDuckDB(engine.DuckDBOptions{Lib: lib, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()

	good, bad := t.TempDir(), t.TempDir()
	var create []string
	tables := map[string][]string{}
	var order []string
	for _, r := range catalogOf(t, filepath.Join(data, "spider", "database", "concert_singer", "concert_singer.sqlite")) {
		if tables[r[0]] == nil {
			order = append(order, r[0])
		}
		tables[r[0]] = append(tables[r[0]], `"`+r[1]+`" VARCHAR`)
	}
	for _, tn := range order {
		create = append(create, fmt.Sprintf(`CREATE TABLE "%s" (%s)`, tn, strings.Join(tables[tn], ", ")))
	}
	if err := engine.CreateDuckDB(lib, filepath.Join(good, "concert_singer.duckdb"), create...); err != nil {
		t.Fatal(err)
	}
	badPath := filepath.Join(bad, "concert_singer", "concert_singer.duckdb")
	if err := os.MkdirAll(filepath.Dir(badPath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := engine.CreateDuckDB(lib, badPath, "CREATE SCHEMA sales", "CREATE TABLE sales.invoices (id INTEGER, total DOUBLE)", "CREATE VIEW v AS SELECT 1 AS x"); err != nil {
		t.Fatal(err)
	}
	for _, withTables := range []bool{true, false} {
		if err := checkDuckDBDatabases(ctx, eng, spiderOn(t, data, good, withTables, "concert_singer")); err != nil {
			t.Errorf("tables file %v, concert_singer's schema: %v", withTables, err)
		}
		err := checkDuckDBDatabases(ctx, eng, spiderOn(t, data, bad, withTables, "concert_singer"))
		if !errors.Is(err, ErrWrongDatabase) || !strings.Contains(err.Error(), badPath) {
			t.Errorf("tables file %v, another database: err = %v, want ErrWrongDatabase naming %s", withTables, err, badPath)
		} else if !withTables && !strings.Contains(err.Error(), "question ") {
			t.Errorf("no tables file, another database: %v, want a question named", err)
		}
	}
}
