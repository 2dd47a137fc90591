package metrics

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// scoreSchemaOracle is ScoreSchema as first written (sorted lists, then lowerSet in
// SetPRF), kept as the oracle of the set form.
func scoreSchemaOracle(r *record.Record) {
	r.SchemaTableP, r.SchemaTableR, r.SchemaTableF1 = nil, nil, nil
	r.SchemaColumnP, r.SchemaColumnR, r.SchemaColumnF1 = nil, nil, nil
	if r.GoldSchema == nil || r.PredSchema == nil {
		return
	}
	if p, ok := TablePRF(r.GoldSchema, r.PredSchema); ok {
		r.SchemaTableP, r.SchemaTableR, r.SchemaTableF1 = &p.P, &p.R, &p.F1
	}
	if p, ok := ColumnPRF(r.GoldSchema, r.PredSchema); ok {
		r.SchemaColumnP, r.SchemaColumnR, r.SchemaColumnF1 = &p.P, &p.R, &p.F1
	}
}

// TestScoreSchemaSetsOracle: ScoreSchema and ScoreSchemaSets(SetsOf(gold)) score every
// pair of schemas as the list form does, including names that differ in case or spaces,
// duplicates, empty names, dots inside names (the pair is compared whole), tables without
// columns and nil schemas.
func TestScoreSchemaSetsOracle(t *testing.T) {
	schemas := []map[string][]string{
		nil,
		{},
		{"t": {}},
		{"T": {"A", "a", " b"}, "u": {"x"}},
		{"t": {"a", "b"}, "U ": {"X ", "y"}},
		{" ": {"a"}, "": {""}},
		{"a.b": {"c"}, "a": {"b.c", "d"}},
		{"a": {"b.c"}},
		{"U ": {"x"}, " t": {"a "}},
		{"Singer": {"Name", "Age"}, "concert": {}},
		{"singer": {"name"}, "stadium": {"capacity"}},
	}
	n := 0
	for gi, g := range schemas {
		for pi, p := range schemas {
			want := &record.Record{SchemaLinking: record.SchemaLinking{GoldSchema: g, PredSchema: p}}
			scoreSchemaOracle(want)
			got := &record.Record{SchemaLinking: record.SchemaLinking{GoldSchema: g, PredSchema: p}}
			ScoreSchema(got)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("ScoreSchema gold %d pred %d (-oracle +got):\n%s", gi, pi, d)
			}
			got = &record.Record{SchemaLinking: record.SchemaLinking{GoldSchema: g, PredSchema: p}}
			ScoreSchemaSets(got, SetsOf(g))
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("ScoreSchemaSets gold %d pred %d (-oracle +got):\n%s", gi, pi, d)
			}
			if want.SchemaColumnF1 != nil {
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no pair had a defined column score: the table tests nothing")
	}
	// The pair is lowered and trimmed whole: "a.b"+"c" and "a"+"b.c" are one element.
	if s := SetsOf(map[string][]string{"a.b": {"c"}, "a": {"b.c"}}); len(s.Columns) != 1 || !s.Columns["a.b.c"] {
		t.Errorf("SetsOf columns %v, want {a.b.c}", s.Columns)
	}
}
