package linking

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlast"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestGoldSetsSpiderDev: over the Spider dev set, scored as two systems (one system's
// predictions, then the gold itself), every record the annotator fills with its cached
// gold schema and gold sets equals a fresh computation: SchemaOf of a fresh extraction of
// the gold, scored by metrics.ScoreSchemaSets from scratch.
func TestGoldSetsSpiderDev(t *testing.T) {
	qs := testutil.SpiderDev(t)
	preds := testutil.SpiderPredictions(t, "DAIL")
	a := New(&dataset.Dataset{Tables: testutil.Shared(t, "data/spider/tables.json")}, Options{})
	scored := 0
	for _, pass := range []string{"DAIL", "gold"} {
		for i, sq := range qs {
			q := &dataset.Question{DBID: sq.DBID, Gold: []string{sq.Query}}
			db := testutil.SpiderDB(t, sq.DBID)
			pred := sq.Query
			if pass == "DAIL" {
				pred = preds[i]
			}
			got := &record.Record{Verdict: record.Correct, GoldSQL: sq.Query, PredSQL: pred}
			if err := a.Annotate(t.Context(), q, db, got); err != nil {
				t.Fatal(err)
			}

			// The fresh computation, from the record's own predicted schema.
			want := &record.Record{SchemaLinking: record.SchemaLinking{PredSchema: got.PredSchema, PredSchemaSource: got.PredSchemaSource}}
			s, err := a.Schema(t.Context(), sq.DBID, db)
			if err != nil {
				t.Fatal(err)
			}
			if u, err := sqlast.ExtractSchema(sq.Query, s); err != nil {
				want.GoldSchemaError = "gold sql: " + err.Error()
			} else {
				want.GoldSchema = SchemaOf(u)
				want.GoldSchemaUnresolved = append(append([]string(nil), u.Unresolved...), u.Ambiguous...)
			}
			sets := metrics.SchemaSets{} // no gold or no selection: the fields cleared
			if want.GoldSchema != nil && want.PredSchema != nil {
				sets = metrics.SetsOf(want.GoldSchema)
			}
			metrics.ScoreSchemaSets(want, sets)
			if d := cmp.Diff(want.SchemaLinking, got.SchemaLinking); d != "" {
				t.Fatalf("%s question %d (-fresh +annotated):\n%s", pass, i, d)
			}
			if got.SchemaColumnF1 != nil {
				scored++
			}
		}
	}
	if scored < len(qs) {
		t.Fatalf("only %d records scored at the column level over %d questions and 2 systems", scored, len(qs))
	}
	t.Logf("%d records with column scores", scored)
}
