package metrics

import (
	"reflect"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestAtAgreesWithCopies holds AggregateAt and ComparePairedAt to what Aggregate and
// ComparePaired give on a copy of the same records, for a rate (Wilson, McNemar) and a
// mean (bootstrap interval and paired bootstrap).
func TestAtAgreesWithCopies(t *testing.T) {
	mk := func(seed int) []record.Record {
		var out []record.Record
		for i := range 300 {
			f := float64((i*seed)%7) / 6
			v := record.Correct
			if (i*seed)%3 == 0 {
				v = record.Incorrect
			}
			if i%50 == 7 {
				v = record.Skipped
			}
			out = append(out, record.Record{Index: i, Verdict: v, Efficiency: record.Efficiency{SoftF1: &f}})
		}
		return out
	}
	a, b := mk(5), mk(11)
	var at []int
	for i := range a {
		if i%4 != 1 {
			at = append(at, i)
		}
	}
	pick := func(recs []record.Record) []record.Record {
		var out []record.Record
		for _, i := range at {
			out = append(out, recs[i])
		}
		return out
	}
	for _, m := range Declared(Options{}) {
		if m.ID != "ex" && m.ID != "soft_f1" {
			continue
		}
		sec := Aggregate([]Metric{m}, []SystemRecords{{Name: "a", Records: pick(a), Difficulties: []DifficultyGroup{}}})
		want := sec.Systems[0].Values[0]
		got := AggregateAt(&m, "a", a, at)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: AggregateAt %+v\nAggregate on a copy %+v", m.ID, got, want)
		}
		wt, _ := ComparePaired(&m, "a", pick(a), "b", pick(b))
		gt, _ := ComparePairedAt(&m, "a", a, "b", b, at)
		if !reflect.DeepEqual(gt, wt) {
			t.Errorf("%s: ComparePairedAt %+v\nComparePaired on copies %+v", m.ID, gt, wt)
		}
		if got.CIText == "" || gt.Text == "" {
			t.Errorf("%s: no interval (%q) or test (%q)", m.ID, got.CIText, gt.Text)
		}
	}
}
