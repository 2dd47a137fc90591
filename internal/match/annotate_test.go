package match

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// makeDB creates a small SQLite database (its AUTOINCREMENT table makes SQLite add
// sqlite_sequence, which the reference's schema includes).
func makeDB(tb testing.TB) string {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), "shop.sqlite")
	db, err := sql.Open("sqlite3", p)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{
		`CREATE TABLE Customer (Id INTEGER PRIMARY KEY AUTOINCREMENT, Name TEXT, City TEXT)`,
		`CREATE TABLE Orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES Customer(Id), Total REAL)`,
	} {
		if _, err := db.Exec(s); err != nil {
			tb.Fatal(err)
		}
	}
	return p
}

func TestSchemaFromSQLite(t *testing.T) {
	s, err := SchemaFromSQLite(context.Background(), makeDB(t))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"customer", "orders", "sqlite_sequence"}, s.TableNames()); d != "" {
		t.Errorf("tables (-want +got):\n%s", d)
	}
	cols, _ := s.Columns("customer")
	if d := cmp.Diff([]string{"id", "name", "city"}, cols); d != "" {
		t.Errorf("customer columns (-want +got):\n%s", d)
	}
	if _, err := SchemaFromSQLite(context.Background(), filepath.Join(t.TempDir(), "missing.sqlite")); err == nil {
		t.Error("missing database: no error")
	}
}

func TestAnnotator(t *testing.T) {
	db := makeDB(t)
	tables := writeTables(t, `[{"db_id": "shop", "table_names_original": ["Customer", "Orders"],
		"column_names_original": [[-1, "*"], [0, "Id"], [0, "Name"], [0, "City"], [1, "order_id"], [1, "customer_id"], [1, "Total"]],
		"foreign_keys": [[5, 1]]}]`)
	q := &dataset.Question{Index: 3, DBID: "shop", Gold: []string{"SELECT T1.Id FROM Customer AS T1 JOIN Orders AS T2 ON T1.Id = T2.customer_id"}}
	one, zero := 1, 0
	tests := []struct {
		name   string
		q      *dataset.Question
		dbPath string
		pred   string
		want   *int
	}{
		{"match through the foreign key", q, db, "SELECT T2.customer_id FROM Customer AS T1 JOIN Orders AS T2 ON T1.Id = T2.customer_id", &one},
		{"no match", q, db, "SELECT T1.Name FROM Customer AS T1 JOIN Orders AS T2 ON T1.Id = T2.customer_id", &zero},
		{"unparsable prediction", q, db, "SELEC nonsense", &zero},
		{"database missing: not computed", q, "", "SELECT Id FROM Customer", nil},
		{"gold unparsable: not computed", &dataset.Question{Index: 4, DBID: "shop", Gold: []string{"SELECT nosuch FROM Customer"}}, db, "SELECT Id FROM Customer", nil},
		{"any accepted gold", &dataset.Question{Index: 5, DBID: "shop", Gold: []string{"SELECT nosuch FROM Customer", "SELECT City FROM Customer", "SELECT Name FROM Customer"}}, db, "SELECT name FROM customer", &one},
	}
	a := NewAnnotator(tables, Options{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &record.Record{PredSQL: tc.pred}
			if err := a.Annotate(context.Background(), tc.q, tc.dbPath, rec); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, rec.ESM); d != "" {
				t.Errorf("esm (-want +got):\n%s", d)
			}
		})
	}
}

func TestAnnotatorBadTables(t *testing.T) {
	a := NewAnnotator(writeTables(t, `{`), Options{})
	q := &dataset.Question{DBID: "shop", Gold: []string{"SELECT Id FROM Customer"}}
	if err := a.Annotate(context.Background(), q, makeDB(t), &record.Record{}); err == nil {
		t.Fatal("malformed tables.json: no error")
	}
}
