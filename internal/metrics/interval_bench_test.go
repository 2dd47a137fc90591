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
