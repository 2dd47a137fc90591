package metrics

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestSetPRF(t *testing.T) {
	tests := []struct {
		name           string
		gold, selected []string
		want           PRF
		ok             bool
	}{
		// |R∩S| = 2, |S| = 4, |R| = 3: P = 1/2, R = 2/3, F1 = 2*(1/2)(2/3)/(1/2+2/3) = 4/7.
		{"partial", []string{"a", "b", "c"}, []string{"a", "B", "x", "y"}, PRF{0.5, 2.0 / 3, 4.0 / 7}, true},
		{"exact, case-insensitive", []string{"Users"}, []string{"users"}, PRF{1, 1, 1}, true},
		{"disjoint", []string{"a"}, []string{"b"}, PRF{0, 0, 0}, true},
		{"empty selection scores zero", []string{"a"}, nil, PRF{0, 0, 0}, true},
		{"empty gold is undefined", nil, []string{"a"}, PRF{}, false},
		{"both empty is undefined", nil, nil, PRF{}, false},
		{"duplicates count once", []string{"a", "a"}, []string{"a", "A"}, PRF{1, 1, 1}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := SetPRF(tt.gold, tt.selected)
			if ok != tt.ok || !near(got.P, tt.want.P) || !near(got.R, tt.want.R) || !near(got.F1, tt.want.F1) {
				t.Errorf("SetPRF = %+v, %v; want %+v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestColumnsComparedPerTable(t *testing.T) {
	gold := map[string][]string{"a": {"name"}, "b": {"id"}}
	sel := map[string][]string{"A": {"NAME"}, "c": {"id"}}
	// Tables: gold {a,b}, selected {a,c}: P = R = F1 = 1/2.
	tp, _ := TablePRF(gold, sel)
	if !near(tp.P, 0.5) || !near(tp.R, 0.5) || !near(tp.F1, 0.5) {
		t.Errorf("tables %+v", tp)
	}
	// Columns: a.name matches; c.id is not b.id. P = R = 1/2.
	cp, _ := ColumnPRF(gold, sel)
	if !near(cp.P, 0.5) || !near(cp.R, 0.5) {
		t.Errorf("columns %+v", cp)
	}
	// A table selected with no columns selects no column.
	cp, _ = ColumnPRF(gold, map[string][]string{"a": nil})
	if cp != (PRF{}) {
		t.Errorf("table-only selection: columns %+v, want zeros", cp)
	}
}

func TestSchemaSelectionMacro(t *testing.T) {
	mk := func(gold, pred map[string][]string, v record.Verdict) record.Record {
		r := record.Record{Verdict: v, SchemaLinking: record.SchemaLinking{GoldSchema: gold, PredSchema: pred, PredSchemaSource: "reported"}}
		ScoreSchema(&r)
		return r
	}
	recs := []record.Record{
		// q1: tables P=R=F1=1; columns gold {t.a,t.b}, sel {t.a}: P=1, R=1/2, F1=2/3.
		mk(map[string][]string{"t": {"a", "b"}}, map[string][]string{"t": {"a"}}, record.Correct),
		// q2: tables gold {t}, sel {t,u}: P=1/2, R=1, F1=2/3; columns gold empty: undefined.
		mk(map[string][]string{"t": {}}, map[string][]string{"t": {"a"}, "u": {"b"}}, record.Incorrect),
		// q3: empty selection: tables 0,0,0; columns 0,0,0.
		mk(map[string][]string{"t": {"a"}}, map[string][]string{}, record.Error),
		// q4: skipped (database missing): left out, as from every score (judged only).
		mk(map[string][]string{"t": {"a"}}, map[string][]string{"t": {"a"}}, record.Skipped),
		// no predicted schema: not averaged.
		mk(map[string][]string{"t": {"a"}}, nil, record.Correct),
		// no gold schema: counted apart.
		mk(nil, map[string][]string{"t": {"a"}}, record.Correct),
	}
	got := SchemaSelectionOf(recs)
	want := &SchemaSelection{
		Questions: 3, Source: map[string]int{"reported": 3}, NoGold: 1,
		// Tables: P = (1+1/2+0)/3 = 1/2; R = (1+1+0)/3 = 2/3; F1 = (1+2/3+0)/3 = 5/9.
		Tables: SchemaLevel{Questions: 3, P: 0.5, R: 2.0 / 3, F1: 5.0 / 9, FullRecall: 2},
		// Columns over q1, q3: P = (1+0)/2, R = (1/2+0)/2 = 1/4, F1 = (2/3+0)/2 = 1/3; q2 undefined.
		Column: SchemaLevel{Questions: 2, Undefined: 1, P: 0.5, R: 0.25, F1: 1.0 / 3, FullRecall: 0},
	}
	if d := cmp.Diff(want, got, cmp.Comparer(near)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	// F1 is the mean of per-question F1s, not 2PR/(P+R) of the means (15/22 here).
	if near(got.Tables.F1, 2*got.Tables.P*got.Tables.R/(got.Tables.P+got.Tables.R)) {
		t.Error("table F1 was recomputed from mean P and R")
	}
	if SchemaSelectionOf(recs[4:5]) != nil {
		t.Error("records without predicted schema gave a section")
	}
}

func TestFullRecall(t *testing.T) {
	one, half := 1.0, 0.5
	tests := []struct {
		tab, col *float64
		full, ok bool
	}{
		{&one, &one, true, true},
		{&one, &half, false, true},
		{&half, nil, false, true},
		{&one, nil, true, true}, // columns undefined (COUNT(*)) count as complete
		{nil, nil, false, false},
	}
	for i, tt := range tests {
		r := record.Record{SchemaLinking: record.SchemaLinking{SchemaTableR: tt.tab, SchemaColumnR: tt.col}}
		if full, ok := FullRecall(&r); full != tt.full || ok != tt.ok {
			t.Errorf("%d: FullRecall = %v, %v; want %v, %v", i, full, ok, tt.full, tt.ok)
		}
	}
}

func TestNormalizeSchema(t *testing.T) {
	got := NormalizeSchema(map[string][]string{"T": {"B", "a"}, "t": {"b"}, "U": nil})
	want := map[string][]string{"t": {"a", "b"}, "u": {}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if NormalizeSchema(nil) != nil {
		t.Error("nil schema became non-nil")
	}
}
