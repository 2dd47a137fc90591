package metrics

import (
	"reflect"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// benchSystems is 7 systems x 1534 questions with verdicts, Soft-F1 and schema scores
// (the size of BIRD dev with several systems), in three difficulties.
func benchSystems() []SystemRecords {
	r := rng{s: 1}
	u := func() float64 { return float64(r.next()>>11) / (1 << 53) }
	var out []SystemRecords
	for s := 0; s < 7; s++ {
		recs := make([]record.Record, 1534)
		for i := range recs {
			f, p := u(), u()
			recs[i] = record.Record{Index: i, Verdict: record.Incorrect, Difficulty: []string{"simple", "moderate", "challenging"}[i%3]}
			if u() < 0.6 {
				recs[i].Verdict = record.Correct
			}
			recs[i].SoftF1, recs[i].SchemaTableF1 = &f, &p
		}
		out = append(out, SystemRecords{Name: string(rune('a' + s)), Records: recs})
	}
	return out
}

// BenchmarkPaired is the paired section of 7 systems (21 pairs) x 1534 questions.
func BenchmarkPaired(b *testing.B) {
	sys, ms := benchSystems(), Declared(Options{})
	sec := Aggregate(ms, sys)
	for b.Loop() {
		Paired(ms, sec, sys)
	}
}

// TestPairedBatchedSameAsAlone: the paired section, whose bootstraps share their draws,
// equals every pair tested alone with ComparePaired (and so with PairedBootstrap), for
// the same seed; some Soft-F1 values are left out so that lengths differ by pair.
func TestPairedBatchedSameAsAlone(t *testing.T) {
	sys := benchSystems()
	for s := range sys {
		for i := s; i < len(sys[s].Records); i += 97 {
			sys[s].Records[i].Verdict = record.Skipped // pairs of different lengths
		}
	}
	ms := Declared(Options{})
	sec := Aggregate(ms, sys)
	got := Paired(ms, sec, sys)
	byID := map[string]*Metric{}
	for i := range ms {
		byID[ms[i].ID] = &ms[i]
	}
	bootstraps := 0
	for _, p := range got.Pairs {
		var a, b []record.Record
		for _, s := range sys {
			if s.Name == p.A {
				a = s.Records
			}
			if s.Name == p.B {
				b = s.Records
			}
		}
		for _, tt := range p.Tests {
			want, ok := ComparePaired(byID[tt.Metric], p.A, a, p.B, b)
			if !ok || !reflect.DeepEqual(want, tt) {
				t.Errorf("%s vs %s, %s: batched %+v, alone %+v", p.A, p.B, tt.Metric, tt, want)
			}
			if tt.Method == MethodPairedBS {
				bootstraps++
			}
		}
	}
	if bootstraps < 21 {
		t.Errorf("only %d paired bootstraps compared", bootstraps)
	}
}

// TestPairRecords: records pair by question index whether or not the two lists are in
// the same order; an unjudged partner, or none, is nil; with repeated indices the last
// judged one wins (positional pairing is only for lists with increasing indices).
func TestPairRecords(t *testing.T) {
	rec := func(i int, v record.Verdict) record.Record { return record.Record{Index: i, Verdict: v} }
	ok, skip := record.Correct, record.Skipped
	for _, tt := range []struct {
		name string
		a, b []record.Record
		want []int // position in b of recsA[i]'s partner, -1: none
	}{
		{"aligned", []record.Record{rec(0, ok), rec(1, ok), rec(2, ok)}, []record.Record{rec(0, ok), rec(1, skip), rec(2, ok)}, []int{0, -1, 2}},
		{"reordered", []record.Record{rec(0, ok), rec(1, ok), rec(2, ok)}, []record.Record{rec(2, ok), rec(0, ok), rec(1, ok)}, []int{1, 2, 0}},
		{"shorter", []record.Record{rec(0, ok), rec(1, ok), rec(2, ok)}, []record.Record{rec(1, ok)}, []int{-1, 0, -1}},
		{"repeated", []record.Record{rec(0, ok), rec(0, ok), rec(1, ok)}, []record.Record{rec(0, ok), rec(0, ok), rec(1, ok)}, []int{1, 1, 2}},
	} {
		partner := pairRecords(tt.a, tt.b)
		for i, w := range tt.want {
			got := partner(i)
			if (w < 0) != (got == nil) || (w >= 0 && got != &tt.b[w]) {
				t.Errorf("%s: record %d paired with %v, want position %d", tt.name, i, got, w)
			}
		}
	}
}
