package match

import (
	"context"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestSpiderAnnotatorConformance runs the annotator the way eval does (questions and gold
// from the Spider loader, predictions from the prediction reader, databases found by the
// dataset) and checks every verdict against ts_exact; questions whose database is
// missing (wta_1) get no verdict.
func TestSpiderAnnotatorConformance(t *testing.T) {
	dir := testutil.Shared(t, "data/spider")
	ctx := context.Background()
	ds, err := dataset.Load(ctx, "spider:"+dir, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := NewAnnotator(ds.Tables, Options{})
	for _, system := range []string{"DAIL", "C3", "DIN"} {
		t.Run(system, func(t *testing.T) {
			set, err := predict.ReadFor(testutil.Shared(t, "data/spider/predictions/"+system+".txt"), len(ds.Questions))
			if err != nil {
				t.Fatal(err)
			}
			if len(set.Items) != len(ds.Questions) {
				t.Fatalf("%d predictions for %d questions", len(set.Items), len(ds.Questions))
			}
			want := map[int]int{}
			for _, c := range readSpiderCases(t, system) {
				want[c.index] = c.want
			}
			agree, missing := 0, 0
			for i := range ds.Questions {
				q := &ds.Questions[i]
				path, _ := ds.DBPath(q.DBID)
				rec := &record.Record{PredSQL: set.Items[i].SQL}
				if err := a.Annotate(ctx, q, path, rec); err != nil {
					t.Fatal(err)
				}
				w, inRef := want[i]
				switch {
				case path == "":
					missing++
					if rec.ESM != nil {
						t.Errorf("question %d: database missing, esm = %d, want none", i, *rec.ESM)
					}
				case !inRef:
					t.Errorf("question %d: database present but not in the reference", i)
				case rec.ESM == nil:
					t.Errorf("question %d: esm not computed", i)
				case *rec.ESM == w:
					agree++
				default:
					t.Errorf("question %d: esm %d, ts_exact %d", i, *rec.ESM, w)
				}
			}
			t.Logf("%s: %d/%d agree with ts_exact; %d questions without a database", system, agree, len(want), missing)
			if agree != len(want) {
				t.Errorf("%d of %d reference rows disagree", len(want)-agree, len(want))
			}
		})
	}
}

// TestSpiderStrictVariants: a stricter variant never matches where the official one
// does not, and each does reject some real predictions the official one accepts.
func TestSpiderStrictVariants(t *testing.T) {
	cases := readSpiderCases(t, "DAIL")
	d := loadSpiderData(t, caseDBs(cases))
	variants := []Options{{}, {Distinct: true}, {Values: true}, {Values: true, Distinct: true}}
	counts := make([]int, len(variants))
	for _, c := range cases {
		var got []bool
		for i, opt := range variants {
			ok, err := ExactSetMatch(c.pred, c.gold, d.schemas[c.db], d.fks[c.db], opt)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, ok)
			if ok {
				counts[i]++
			}
		}
		if (got[1] && !got[0]) || (got[2] && !got[0]) || (got[3] && !(got[1] && got[2])) {
			t.Errorf("question %d: a stricter variant matches where a looser one does not: %v", c.index, got)
		}
	}
	t.Logf("DAIL matches: official %d, distinct %d, values %d, values+distinct %d", counts[0], counts[1], counts[2], counts[3])
	if counts[2] >= counts[0] {
		t.Errorf("value checking rejected nothing (%d vs %d): it is not in effect", counts[2], counts[0])
	}
}
