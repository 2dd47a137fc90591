package metrics

import (
	"math"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func TestWilson(t *testing.T) {
	// Hand-computed with z = 1.96: for k = 5, n = 10, centre = (0.5 + z²/20) / (1 + z²/10)
	// = 0.5, half = z·sqrt(0.025 + z²/400) / (1 + z²/10) = 1.96·0.18602 / 1.38415 =
	// 0.26341; for k = 0, n = 10 the upper bound is (z²/10) / (1 + z²/10) = 0.27753.
	tests := []struct {
		k, n   int
		lo, hi float64
	}{
		{5, 10, 0.23659, 0.76341},
		{0, 10, 0, 0.27753},
		{10, 10, 0.72247, 1},
		{0, 0, 0, 1},
		{81, 100, 0.72221, 0.87486}, // centre 0.82921/1.03842 = 0.79854, half 1.96·0.040436/1.03842 = 0.07632
	}
	for _, tt := range tests {
		lo, hi := Wilson(tt.k, tt.n)
		if math.Abs(lo-tt.lo) > 5e-5 || math.Abs(hi-tt.hi) > 5e-5 {
			t.Errorf("Wilson(%d, %d) = [%.5f, %.5f], want [%.5f, %.5f]", tt.k, tt.n, lo, hi, tt.lo, tt.hi)
		}
	}
}

func TestMcNemarExact(t *testing.T) {
	// p = min(1, 2·Σ_{i≤min(b,c)} C(b+c, i) / 2^(b+c)), by hand:
	tests := []struct {
		b, c int
		p    float64
	}{
		{1, 9, 0.021484375},   // n=10: 2·(1+10)/1024 = 22/1024
		{0, 5, 0.0625},        // n=5: 2·1/32
		{2, 8, 0.109375},      // n=10: 2·(1+10+45)/1024 = 112/1024
		{10, 1, 0.01171875},   // n=11: 2·(1+11)/2048 = 24/2048
		{3, 3, 1},             // n=6: 2·(1+6+15+20)/64 = 84/64, capped at 1
		{0, 0, 1},             // no discordant question: no evidence
		{12, 40, 0.000127539}, // exact sum with Python fractions: 1.275387838557e-4
		{100, 130, 0.0556136}, // idem: 0.05561357778139
	}
	for _, tt := range tests {
		if got := McNemarExact(tt.b, tt.c); math.Abs(got-tt.p) > 1e-6*math.Max(1, tt.p) && math.Abs(got-tt.p)/tt.p > 1e-5 {
			t.Errorf("McNemarExact(%d, %d) = %.9g, want %.9g", tt.b, tt.c, got, tt.p)
		}
	}
}

// TestWilsonCoverage runs 1,000 synthetic systems of known accuracy through the registry
// (Aggregate, as eval does) and counts how often EX's 95% interval holds the truth. Each
// system is aggregated alone with EX alone: the interval is the system's own, and
// building all 500,000 records first and aggregating every metric over them took 6-12 s.
func TestWilsonCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("a 1,000-system simulation is slow for -short; go test ./... runs it")
	}
	const systems, questions = 1000, 500
	var ex []Metric
	for _, m := range Declared(Options{}) {
		if m.ID == "ex" {
			ex = append(ex, m)
		}
	}
	r := rng{s: 42}
	recs := make([]record.Record, questions)
	held := 0
	for s := 0; s < systems; s++ {
		p := 0.3 + 0.65*float64(r.next()>>11)/(1<<53) // accuracy in [0.30, 0.95]
		for i := range recs {
			recs[i] = record.Record{Index: i, Verdict: record.Incorrect, Difficulty: "simple"}
			if float64(r.next()>>11)/(1<<53) < p {
				recs[i].Verdict = record.Correct
			}
		}
		sec := Aggregate(ex, []SystemRecords{{Name: "s", Records: recs}})
		v := sec.Systems[0].Values[0] // ex
		if v.CIMethod != MethodWilson || v.CILow == nil {
			t.Fatalf("system %d: ex has no Wilson interval: %+v", s, v)
		}
		if *v.CILow <= p && p <= *v.CIHigh {
			held++
		}
	}
	rate := float64(held) / systems
	t.Logf("Wilson 95%% interval held the true accuracy for %d of %d systems (%.1f%%)", held, systems, 100*rate)
	if rate < 0.93 || rate > 0.97 {
		t.Errorf("coverage %.3f outside [0.93, 0.97]", rate)
	}
}

// TestBootstrapCoverage does the same for the bootstrap interval of a mean: per-question
// scores are 0 (30%), 1 (40%) or uniform in (0, 1) (30%), a Soft-F1-like mixture of known
// mean 0.4 + 0.3·0.5 = 0.55.
func TestBootstrapCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("bootstrap coverage simulation is slow (-short)")
	}
	const systems, questions, truth = 1000, 200, 0.55
	r := rng{s: 7}
	u := func() float64 { return float64(r.next()>>11) / (1 << 53) }
	held := 0
	xs := make([]float64, questions)
	for s := 0; s < systems; s++ {
		for i := range xs {
			switch x := u(); {
			case x < 0.3:
				xs[i] = 0
			case x < 0.7:
				xs[i] = 1
			default:
				xs[i] = u()
			}
		}
		lo, hi := BootstrapMean(xs)
		if lo <= truth && truth <= hi {
			held++
		}
	}
	rate := float64(held) / systems
	t.Logf("bootstrap 95%% interval held the true mean for %d of %d systems (%.1f%%)", held, systems, 100*rate)
	if rate < 0.93 || rate > 0.97 {
		t.Errorf("coverage %.3f outside [0.93, 0.97]", rate)
	}
}

func TestBootstrapDeterministicAndDegenerate(t *testing.T) {
	xs := []float64{0.1, 0.5, 0.9, 0.3, 1, 0}
	lo1, hi1 := BootstrapMean(xs)
	lo2, hi2 := BootstrapMean(xs)
	if lo1 != lo2 || hi1 != hi2 {
		t.Errorf("two bootstraps of the same data differ: [%v, %v] vs [%v, %v]", lo1, hi1, lo2, hi2)
	}
	if m := mean(xs); !(lo1 < m && m < hi1) {
		t.Errorf("interval [%v, %v] does not hold the mean %v", lo1, hi1, m)
	}
	if lo, hi := BootstrapMean([]float64{0.4, 0.4, 0.4}); lo != 0.4 || hi != 0.4 {
		t.Errorf("constant data: [%v, %v], want [0.4, 0.4]", lo, hi)
	}
}

func TestPairedBootstrap(t *testing.T) {
	same := []float64{0.2, 0.4, 0.9, 1, 0}
	if d, lo, hi, p := PairedBootstrap(same, same); d != 0 || lo != 0 || hi != 0 || p != 1 {
		t.Errorf("identical systems: diff %v [%v, %v] p %v; want 0 [0, 0] p 1", d, lo, hi, p)
	}
	// A is better by 0.3 on every one of 60 questions but two: a clear difference.
	a, b := make([]float64, 60), make([]float64, 60)
	for i := range a {
		b[i] = float64(i%5) / 10
		a[i] = b[i] + 0.3
	}
	a[0], a[1] = b[0]-0.1, b[1]
	d, lo, hi, p := PairedBootstrap(a, b)
	if !(d > 0.25 && lo > 0 && hi > d && p < 0.01) {
		t.Errorf("clear difference: diff %v [%v, %v] p %v", d, lo, hi, p)
	}
	// Differences symmetric around 0: no evidence.
	for i := range a {
		a[i] = b[i] + 0.2*float64(1-2*(i%2))
	}
	if _, lo, hi, p := PairedBootstrap(a, b); !(lo < 0 && hi > 0 && p > 0.5) {
		t.Errorf("no difference: [%v, %v] p %v", lo, hi, p)
	}
}

func TestPairedSection(t *testing.T) {
	// A correct on 0..9, B correct on 9..18 of 20 questions: a_only 9 (0..8), b_only 9
	// (10..18) and question 9 concordant; Soft-F1 mirrors correctness.
	mk := func(from, to int) []record.Record {
		recs := make([]record.Record, 20)
		for i := range recs {
			f := 0.0
			recs[i] = record.Record{Index: i, Verdict: record.Incorrect}
			if i >= from && i <= to {
				recs[i].Verdict, f = record.Correct, 1
			}
			recs[i].SoftF1 = &f
		}
		return recs
	}
	systems := []SystemRecords{{Name: "a", Records: mk(0, 9)}, {Name: "b", Records: mk(9, 18)}, {Name: "c", Records: mk(0, 19)}}
	ms := Declared(Options{})
	sec := Aggregate(ms, systems)
	ps := Paired(ms, sec, systems)
	if len(ps.Pairs) != 3 {
		t.Fatalf("got %d pairs, want 3", len(ps.Pairs))
	}
	find := func(p Pair, id string) PairedTest {
		for _, x := range p.Tests {
			if x.Metric == id {
				return x
			}
		}
		t.Fatalf("pair %s/%s has no %s test", p.A, p.B, id)
		return PairedTest{}
	}
	ex := find(ps.Pairs[0], "ex")
	if ex.Method != MethodMcNemar || *ex.AOnly != 9 || *ex.BOnly != 9 || ex.P != 1 || ex.N != 20 {
		t.Errorf("a vs b ex: %+v", ex)
	}
	// a vs c: c is right on the 10 questions a misses: b = 0, c = 10, p = 2/1024.
	ex = find(ps.Pairs[1], "ex")
	if *ex.AOnly != 0 || *ex.BOnly != 10 || math.Abs(ex.P-2.0/1024) > 1e-12 || ex.Text != "-50.00 (a_only 0, b_only 10) p=0.0020" {
		t.Errorf("a vs c ex: %+v", ex)
	}
	sf := find(ps.Pairs[1], "soft_f1")
	if sf.Method != MethodPairedBS || sf.Diff != -0.5 || sf.P > 0.01 {
		t.Errorf("a vs c soft_f1: %+v", sf)
	}
}

// TestRateValue: a rate outside the sections (a task category) reads as EX does: its
// text, Wilson's interval, and not applicable when nothing was judged.
func TestRateValue(t *testing.T) {
	v := RateValue(PrimaryID, 7, 10)
	lo, hi := Wilson(7, 10)
	if !v.Applicable || v.Text != "70.00" || v.CIMethod != MethodWilson || v.CILow == nil || *v.CILow != lo || *v.CIHigh != hi || v.CIText != "[39.68, 89.22]" {
		t.Errorf("7 of 10: %+v (ci %v %v), want 70.00 [39.68, 89.22]", v, lo, hi)
	}
	if v := RateValue(PrimaryID, 0, 0); v.Applicable || v.Value != nil || v.Text != "n/a: nothing judged" {
		t.Errorf("0 of 0: %+v, want not applicable", v)
	}
	if v := RateValue("no such metric", 1, 2); v.Applicable {
		t.Errorf("an undeclared id: %+v, want not applicable", v)
	}
}
