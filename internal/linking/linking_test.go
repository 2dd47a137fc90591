package linking

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	_ "github.com/mattn/go-sqlite3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

const schoolTables = `[{
  "db_id": "school",
  "table_names_original": ["Student", "Enrol"],
  "column_names_original": [[-1, "*"], [0, "StuID"], [0, "Name"], [1, "StuID"], [1, "Grade"]],
  "column_types": ["text", "number", "text", "number", "real"],
  "primary_keys": [1],
  "foreign_keys": [[3, 1]]
}]`

func writeTables(tb testing.TB) string {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), "tables.json")
	if err := os.WriteFile(p, []byte(schoolTables), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

func makeDB(tb testing.TB) string {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), "shop.sqlite")
	db, err := sql.Open("sqlite3", "file:"+p)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, city TEXT);
		CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total REAL);`); err != nil {
		tb.Fatal(err)
	}
	return p
}

func f(x float64) *float64 { return &x }

func TestAnnotateFromTablesJSON(t *testing.T) {
	ds := &dataset.Dataset{Tables: writeTables(t)}
	a := New(ds, Options{PassK: []int{1, 2}})
	q := &dataset.Question{DBID: "school", Gold: []string{"SELECT T1.Name FROM Student AS T1 JOIN Enrol AS T2 ON T1.StuID = T2.StuID WHERE T2.Grade > 3"}}
	rec := &record.Record{Verdict: record.Incorrect, GoldSQL: q.Gold[0],
		SelectedSchema: map[string][]string{"STUDENT": {"name", "StuID"}},
		Candidates:     []record.Candidate{{Verdict: record.Incorrect}, {Verdict: record.Correct}}, RevisionApplied: true}
	if err := a.Annotate(context.Background(), q, "", rec); err != nil {
		t.Fatal(err)
	}
	wantGold := map[string][]string{"enrol": {"grade", "stuid"}, "student": {"name", "stuid"}}
	if d := cmp.Diff(wantGold, rec.GoldSchema); d != "" {
		t.Errorf("gold (-want +got):\n%s", d)
	}
	// Tables: selected {student} of gold {enrol, student}: P=1, R=1/2, F1=2/3.
	// Columns: selected {student.name, student.stuid} of 4 gold: P=1, R=1/2, F1=2/3.
	want := record.SchemaLinking{
		GoldSchema: wantGold, PredSchema: map[string][]string{"student": {"name", "stuid"}}, PredSchemaSource: SourceReported,
		SchemaTableP: f(1), SchemaTableR: f(0.5), SchemaTableF1: f(2.0 / 3),
		SchemaColumnP: f(1), SchemaColumnR: f(0.5), SchemaColumnF1: f(2.0 / 3),
	}
	if d := cmp.Diff(want, rec.SchemaLinking, cmp.Comparer(func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 })); d != "" {
		t.Errorf("schema linking (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]int{"1": 0, "2": 1}, rec.PassAt); d != "" {
		t.Errorf("pass_at (-want +got):\n%s", d)
	}
	if rec.PreRevisionVerdict != record.Incorrect || rec.PostRevisionVerdict != record.Incorrect {
		t.Errorf("revision verdicts %q -> %q", rec.PreRevisionVerdict, rec.PostRevisionVerdict)
	}
}

func TestAnnotateFromSQLiteAndSQLFallback(t *testing.T) {
	db := makeDB(t)
	a := New(&dataset.Dataset{}, Options{})
	q := &dataset.Question{DBID: "shop", Gold: []string{"SELECT count(*) FROM customers"}}
	rec := &record.Record{Verdict: record.Correct, GoldSQL: q.Gold[0], PredSQL: "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.id"}
	if err := a.Annotate(context.Background(), q, db, rec); err != nil {
		t.Fatal(err)
	}
	// COUNT(*) uses the table and no column: column scores are undefined (omitted).
	if d := cmp.Diff(map[string][]string{"customers": {}}, rec.GoldSchema); d != "" {
		t.Errorf("gold (-want +got):\n%s", d)
	}
	if rec.PredSchemaSource != SourcePredSQL || len(rec.PredSchema) != 2 {
		t.Errorf("pred schema %v from %q", rec.PredSchema, rec.PredSchemaSource)
	}
	if rec.SchemaColumnP != nil || rec.SchemaTableP == nil || *rec.SchemaTableP != 0.5 || *rec.SchemaTableR != 1 {
		t.Errorf("scores: %+v", rec.SchemaLinking)
	}
	// Without the fallback, a system that reported no schema gets no predicted schema.
	b := New(&dataset.Dataset{}, Options{NoSQLFallback: true})
	rec2 := &record.Record{Verdict: record.Correct, GoldSQL: q.Gold[0], PredSQL: "SELECT 1"}
	if err := b.Annotate(context.Background(), q, db, rec2); err != nil {
		t.Fatal(err)
	}
	if rec2.PredSchema != nil || rec2.SchemaTableP != nil {
		t.Errorf("no-fallback: %+v", rec2.SchemaLinking)
	}
}

func TestAnnotateWithoutSchemaOrParse(t *testing.T) {
	a := New(&dataset.Dataset{}, Options{})
	rec := &record.Record{Verdict: record.Correct, GoldSQL: "SELECT 1"}
	if err := a.Annotate(context.Background(), &dataset.Question{DBID: "nowhere", Gold: []string{"SELECT 1"}}, "", rec); err != nil {
		t.Fatal(err)
	}
	if rec.GoldSchemaError == "" || rec.GoldSchema != nil {
		t.Errorf("missing schema: %+v", rec.SchemaLinking)
	}
	b := New(&dataset.Dataset{Tables: writeTables(t)}, Options{})
	rec = &record.Record{Verdict: record.Correct, GoldSQL: "SELEC name FROM student"}
	if err := b.Annotate(context.Background(), &dataset.Question{DBID: "school", Gold: []string{rec.GoldSQL}}, "", rec); err != nil {
		t.Fatal(err)
	}
	if rec.GoldSchemaError == "" || rec.GoldSchema != nil {
		t.Errorf("unparsable gold: %+v", rec.SchemaLinking)
	}
}

// TestAnnotateConcurrent runs the annotator from many goroutines, as the judge's workers
// do (run with -race), and checks every record gets the same gold schema.
func TestAnnotateConcurrent(t *testing.T) {
	db := makeDB(t)
	a := New(&dataset.Dataset{Tables: writeTables(t)}, Options{})
	qs := []*dataset.Question{
		{DBID: "shop", Gold: []string{"SELECT name FROM customers WHERE city = 'Porto'"}},
		{DBID: "school", Gold: []string{"SELECT Name FROM Student"}},
	}
	paths := []string{db, ""}
	recs := make([]record.Record, 40)
	errs := make(chan error, len(recs))
	for i := range recs {
		go func(i int) {
			q := qs[i%2]
			recs[i] = record.Record{Verdict: record.Correct, GoldSQL: q.Gold[0], PredSQL: q.Gold[0]}
			errs <- a.Annotate(context.Background(), q, paths[i%2], &recs[i])
		}(i)
	}
	for range recs {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	want := []map[string][]string{{"customers": {"city", "name"}}, {"student": {"name"}}}
	for i, r := range recs {
		if d := cmp.Diff(want[i%2], r.GoldSchema); d != "" || r.SchemaColumnF1 == nil || *r.SchemaColumnF1 != 1 {
			t.Fatalf("record %d (-want +got):\n%s", i, d)
		}
	}
}
