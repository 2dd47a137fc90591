package sqlppfake

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	_ "github.com/mattn/go-sqlite3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// makeDB writes root/<dbID>/<dbID>.sqlite from SQL statements.
func makeDB(tb testing.TB, root, dbID string, stmts ...string) {
	tb.Helper()
	dir := filepath.Join(root, dbID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	db, err := sql.Open("sqlite3", filepath.Join(dir, dbID+".sqlite"))
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			tb.Fatalf("%s: %v", s, err)
		}
	}
}

func TestThroughSQLPPEngine(t *testing.T) {
	root := t.TempDir()
	makeDB(t, root, "shop",
		"CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price REAL, note TEXT)",
		"INSERT INTO item VALUES (1, 'pen', 1.5, NULL), (2, 'ink', 3, 'blue')")
	srv := New(root)
	defer srv.Close()
	srv.RequireAuth("alice", "pw")
	ctx := context.Background()
	eng, err := engine.NewSQLPP(srv.URL(), "alice", "pw", "bench")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, db, stmt string
		cols           []string
		rows           [][]any
		err            func(error) bool
	}{
		{name: "query in column order with null", db: "shop", stmt: "SELECT note, name, price FROM item ORDER BY id",
			cols: []string{"note", "name", "price"}, rows: [][]any{{nil, "pen", 1.5}, {"blue", "ink", int64(3)}}},
		{name: "backticked identifiers", db: "shop", stmt: "SELECT `name` AS `the name` FROM `item` WHERE id = 2",
			cols: []string{"the name"}, rows: [][]any{{"ink"}}},
		{name: "repeated column names", db: "shop", stmt: "SELECT name, name FROM item WHERE id = 1",
			cols: []string{"name", "name_2"}, rows: [][]any{{"pen", "pen"}}},
		{name: "syntax error", db: "shop", stmt: "SELEC name FROM item", err: func(err error) bool {
			var dbe *engine.DBError
			return errors.As(err, &dbe) && strings.Contains(dbe.Message, "SQL++ error 3000")
		}},
		{name: "no such table is keyspace not found", db: "shop", stmt: "SELECT * FROM nope", err: func(err error) bool {
			var dbe *engine.DBError
			return errors.As(err, &dbe) && strings.Contains(dbe.Message, "SQL++ error 12003") && strings.Contains(dbe.Message, "Keyspace not found")
		}},
		{name: "write refused", db: "shop", stmt: "DELETE FROM item", err: func(err error) bool { return errors.Is(err, engine.ErrNotReadOnly) }},
		{name: "missing db_id", db: "nowhere", stmt: "SELECT 1", err: func(err error) bool {
			var dbe *engine.DBError
			return errors.As(err, &dbe) && strings.Contains(dbe.Message, "SQL++ error 12021")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := eng.Query(ctx, tt.db, tt.stmt, engine.Limits{})
			if tt.err != nil {
				if err == nil || !tt.err(err) {
					t.Fatalf("error %v (result %v)", err, res)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.cols, res.Columns); diff != "" {
				t.Errorf("columns (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.rows, res.BoxedRows()); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			if res.Missing() != nil {
				t.Errorf("missing %v, want none", res.Missing())
			}
		})
	}
	seen := srv.Seen()
	if len(seen) != len(tests) || int(srv.Requests()) != len(tests) {
		t.Fatalf("%d requests seen, %d counted, want %d", len(seen), srv.Requests(), len(tests))
	}
	if seen[0].QueryContext != "default:`bench`.`shop`" || seen[0].DBID != "shop" || !seen[0].ReadOnly {
		t.Errorf("first request %+v", seen[0])
	}

	bad, _ := engine.NewSQLPP(srv.URL(), "alice", "wrong", "bench")
	if _, err := bad.Query(ctx, "shop", "SELECT 1", engine.Limits{}); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("wrong password: %v", err)
	}
}

func TestScopeOf(t *testing.T) {
	for qc, want := range map[string]string{
		"default:`b`.`shop`": "shop",
		"default:b.shop":     "shop",
		"b.shop":             "shop",
		"`my b`.`a.b`":       "a.b",
		"default:`b`":        "",
		"":                   "",
	} {
		if got := scopeOf(qc); got != want {
			t.Errorf("scopeOf(%q) = %q, want %q", qc, got, want)
		}
	}
}

func TestArgsRefused(t *testing.T) {
	root := t.TempDir()
	makeDB(t, root, "shop", "CREATE TABLE item (id INTEGER)")
	srv := New(root)
	defer srv.Close()
	eng, _ := engine.NewSQLPP(srv.URL(), "", "", "bench")
	_, err := eng.QueryArgs(context.Background(), "shop", "SELECT * FROM item WHERE id = $1", []any{1}, nil, engine.Limits{})
	if err == nil || !strings.Contains(err.Error(), "not supported") {
		t.Errorf("args: %v", err)
	}
}
