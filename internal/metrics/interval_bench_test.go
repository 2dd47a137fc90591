package metrics

import (
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
