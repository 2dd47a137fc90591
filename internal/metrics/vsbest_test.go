package metrics

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestHolm: Holm's step-down adjustment on hand-computed cases.
func TestHolm(t *testing.T) {
	for _, c := range []struct {
		name string
		ps   []float64
		want []float64
	}{
		{"one test is not adjusted", []float64{0.03}, []float64{0.03}},
		{"three tests", []float64{0.01, 0.04, 0.03}, []float64{0.03, 0.06, 0.06}}, // 3*0.01, max(2*0.03, .03), max(1*0.04, .06)
		{"capped at 1", []float64{0.6, 0.6}, []float64{1, 1}},
		{"order kept", []float64{0.04, 0.001}, []float64{0.04, 0.002}},
	} {
		got := Holm(c.ps)
		for i := range c.want {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("%s: Holm(%v) = %v, want %v", c.name, c.ps, got, c.want)
				break
			}
		}
	}
}

// TestNewcombePairedCoverage: 1,000 synthetic pairs of systems with a known difference
// of accuracy (correlated answers, 400 questions): Newcombe's interval holds the true
// difference for 93-97% of them.
func TestNewcombePairedCoverage(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 1))
	const trials, n = 1000, 400
	held := 0
	for range trials {
		// A question is easy for both with probability e; otherwise each system gets
		// it right on its own chance.
		pa, pb, e := 0.3+0.6*r.Float64(), 0.3+0.6*r.Float64(), 0.5*r.Float64()
		trueDiff := (e + (1-e)*pa) - (e + (1-e)*pb)
		var both, aOnly, bOnly, neither int
		for range n {
			easy := r.Float64() < e
			a := easy || r.Float64() < pa
			b := easy || r.Float64() < pb
			switch {
			case a && b:
				both++
			case a:
				aOnly++
			case b:
				bOnly++
			default:
				neither++
			}
		}
		lo, hi := NewcombePaired(both, aOnly, bOnly, neither)
		if lo > hi || lo < -1 || hi > 1 {
			t.Fatalf("interval [%v, %v] of (%d, %d, %d, %d)", lo, hi, both, aOnly, bOnly, neither)
		}
		if lo <= trueDiff && trueDiff <= hi {
			held++
		}
	}
	t.Logf("Newcombe's paired interval held the true difference %d of %d times", held, trials)
	if held < 930 || held > 970 {
		t.Errorf("coverage %d of %d, want 930-970", held, trials)
	}
	// No discordant question: the difference is 0 and the interval is not degenerate.
	if lo, hi := NewcombePaired(50, 0, 0, 50); !(lo < 0 && hi > 0) {
		t.Errorf("no discordant question: [%v, %v], want an interval around 0", lo, hi)
	}
}

// TestVsBest: three systems; the best is chosen per metric, every other system is
// compared with it in the orientation system - best, p-values are Holm-corrected over a
// metric's pairs, a metric that repeats an earlier one is not shown, and neither is a
// share of failures nor EX under the other semantics.
func TestVsBest(t *testing.T) {
	// 200 questions: A right on 150, B on the same 150 but 20 swapped for others (no
	// difference), C right on 100 (worse). ESM: B best.
	mk := func(ex func(i int) bool, esm func(i int) bool) []record.Record {
		recs := make([]record.Record, 200)
		for i := range recs {
			recs[i] = record.Record{Index: i, Difficulty: "easy", Verdict: record.Incorrect}
			if ex(i) {
				recs[i].Verdict, recs[i].ExSpider, recs[i].ExBird = record.Correct, 1, 1
			}
			v := 0
			if esm(i) {
				v = 1
			}
			recs[i].ESM = &v
		}
		return recs
	}
	srs := []SystemRecords{
		{Name: "A", Records: mk(func(i int) bool { return i < 150 }, func(i int) bool { return i < 60 })},
		{Name: "B", Records: mk(func(i int) bool { return i >= 20 && i < 170 }, func(i int) bool { return i < 120 })},
		{Name: "C", Records: mk(func(i int) bool { return i < 100 }, func(i int) bool { return i < 110 })},
	}
	ms := Declared(Options{})
	// A second declaration of EX, as EX under the run's semantics repeats it (Spider
	// 2.0's Final score repeats EX in a Spider 2.0 run).
	again := ms[0]
	again.ID, again.Label = "ex_again", "EX again"
	ms = append(ms, again)
	sec := Aggregate(ms, srs)
	vb := VsBest(ms, sec, Paired(ms, sec, srs))
	if vb == nil || vb.Headline != "ex" {
		t.Fatalf("section %+v, want headline ex", vb)
	}
	byID := map[string]VsBestMetric{}
	for _, m := range vb.Metrics {
		byID[m.Metric] = m
	}
	ex := byID["ex"]
	if ex.Best != "A" || !ex.Shown || ex.Pairs != 2 || !ex.Corrected || len(ex.Rows) != 2 {
		t.Fatalf("ex: %+v", ex)
	}
	b, c := ex.Rows[0], ex.Rows[1]
	if b.System != "B" || b.Diff != 0 || b.Verdict != VerdictSame {
		t.Errorf("B vs A on EX: %+v, want +0 and no detectable difference", b)
	}
	if c.System != "C" || math.Abs(c.Diff-(-0.25)) > 1e-12 || c.Verdict != VerdictWorse || *c.DiffHigh >= 0 {
		t.Errorf("C vs A on EX: %+v, want -0.25 and worse", c)
	}
	if want := Holm([]float64{b.P, c.P}); b.PHolm != want[0] || c.PHolm != want[1] {
		t.Errorf("Holm p %v, %v, want %v", b.PHolm, c.PHolm, want)
	}
	// The paired section holds C's test as A - C (A before C): here it is turned round.
	for _, p := range Paired(ms, sec, srs).Pairs {
		if p.A == "A" && p.B == "C" && p.Tests[0].Metric == "ex" && (p.Tests[0].Diff != 0.25 || p.Tests[0].P != c.P) {
			t.Errorf("paired A - C %+v does not mirror vs_best's C - A %+v", p.Tests[0], c)
		}
	}
	if m := byID["ex_again"]; m.SameAs != "ex" || m.Shown {
		t.Errorf("ex_again repeats ex: %+v", m)
	}
	for _, id := range []string{"incorrect", "ex_spider"} {
		if m, ok := byID[id]; ok {
			t.Errorf("%s is not compared on the first screen: %+v", id, m)
		}
	}
	esm := byID["esm"]
	if esm.Best != "B" || !esm.Shown || !esm.Significant || esm.Rows[0].System != "A" || esm.Rows[0].Verdict != VerdictWorse {
		t.Errorf("esm: %+v, want B best and A worse", esm)
	}
	// One system: nothing to compare.
	if one := VsBest(ms, Aggregate(ms, srs[:1]), Paired(ms, Aggregate(ms, srs[:1]), srs[:1])); one != nil {
		t.Errorf("one system: %+v, want nil", one)
	}
}

// TestEveryMetricHasALegend: every metric the registry declares (Pass@k, cost and all)
// is explained in words, itself or with the entry of the metric it names, so that no
// output prints a label it cannot explain.
func TestEveryMetricHasALegend(t *testing.T) {
	for _, m := range Declared(Options{PassK: []int{1, 5}, Pricing: &Pricing{}}) {
		d := m.Display
		switch {
		case d.Legend != "" && d.LegendWith != "":
			t.Errorf("%s has a legend and shares %s's", m.ID, d.LegendWith)
		case d.LegendWith != "":
			if w, ok := Declaration(d.LegendWith); !ok || w.Display.Legend == "" {
				t.Errorf("%s is explained with %q, which has no legend", m.ID, d.LegendWith)
			}
		case d.Legend == "":
			t.Errorf("metric %s (%s) has no legend", m.ID, m.Label)
		}
		if got, ok := Declaration(m.ID); !ok || got.ID != m.ID {
			t.Errorf("Declaration(%q) = %q, %v", m.ID, got.ID, ok)
		}
		if LegendOf(m.ID) == "" {
			t.Errorf("LegendOf(%q) is empty", m.ID)
		}
	}
}
