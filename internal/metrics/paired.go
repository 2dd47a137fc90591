package metrics

import (
	"fmt"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// PairedSection is summary.json's "paired" section: every two systems of a run compared
// on the questions both were judged on, metric by metric (docs/statistics.md). A 0/1
// metric is compared by the exact McNemar test on the discordant questions, a mean by a
// paired bootstrap of the per-question differences.
type PairedSection struct {
	Confidence float64 `json:"confidence"`
	Resamples  int     `json:"bootstrap_resamples"`
	Seed       uint64  `json:"bootstrap_seed"`
	Pairs      []Pair  `json:"pairs"`
}

// Pair is one pair of systems, A before B in the run's order.
type Pair struct {
	A     string       `json:"a"`
	B     string       `json:"b"`
	Tests []PairedTest `json:"tests"`
}

// PairedTest compares A and B on one metric over the questions both have a value for.
type PairedTest struct {
	Metric string `json:"metric"`
	Method string `json:"method"` // MethodMcNemar or MethodPairedBS
	// N counts the paired questions; A and B are the two means over them and Diff = A - B.
	N    int     `json:"n"`
	A    float64 `json:"a"`
	B    float64 `json:"b"`
	Diff float64 `json:"diff"`
	// DiffLow and DiffHigh bound Diff's 95% interval: Newcombe's hybrid score interval
	// for paired rates (0/1 metrics), the paired bootstrap's percentile interval for means.
	DiffLow  *float64 `json:"diff_low,omitempty"`
	DiffHigh *float64 `json:"diff_high,omitempty"`
	// AOnly counts the questions A gets right and B wrong, BOnly the reverse (0/1
	// metrics only): McNemar's discordant counts.
	AOnly *int    `json:"a_only,omitempty"`
	BOnly *int    `json:"b_only,omitempty"`
	P     float64 `json:"p_value"`
	// Text is the comparison as every output prints it.
	Text string `json:"text"`
}

// Significant reports whether the test rejects "no difference" at level alpha.
func (t *PairedTest) Significant(alpha float64) bool { return t.P < alpha }

// Paired compares every two systems on every headline metric the section carries and
// both systems can report (applicable overall). Records are paired by question index.
// The other groups (schema, candidates, usage) are left to the compare command: their
// bootstraps would multiply the cost of a summary for tables no output shows.
// MaxPairedSystems is the most systems compared pair by pair. Past it, summary.json
// would grow with the square of the systems (200 systems: 19,900 pairs, and as many per
// slice group); the paired section then keeps only the pairs with each headline
// metric's best system (what vs_best needs), and the slices no pairs: both grow
// linearly.
const MaxPairedSystems = 20

// pairedWith is the systems whose pairs are kept when there are more than
// MaxPairedSystems (each headline metric's best), nil when every pair is.
func pairedWith(sec *Section, systems []SystemRecords) map[string]bool {
	if len(systems) <= MaxPairedSystems {
		return nil
	}
	keep := map[string]bool{}
	for _, d := range sec.Definitions {
		if d.Group != "headline" {
			continue
		}
		if best, _, ok := bestSystem(d, sec); ok {
			keep[best] = true
		}
	}
	return keep
}

func Paired(ms []Metric, sec *Section, systems []SystemRecords) *PairedSection {
	out := &PairedSection{Confidence: Confidence, Resamples: BootstrapResamples, Seed: BootstrapSeed, Pairs: []Pair{}}
	if sec == nil {
		return out
	}
	byID := map[string]*Metric{}
	for i := range ms {
		byID[ms[i].ID] = &ms[i]
	}
	var pending []pendingPaired // the paired bootstraps, drawn together below
	keep := pairedWith(sec, systems)
	for i := 0; i < len(systems); i++ {
		for j := i + 1; j < len(systems); j++ {
			a, b := &systems[i], &systems[j]
			if keep != nil && !keep[a.Name] && !keep[b.Name] {
				continue
			}
			p := Pair{A: a.Name, B: b.Name, Tests: []PairedTest{}}
			for _, d := range sec.Definitions {
				m := byID[d.ID]
				_, va, _ := sec.Lookup(a.Name, d.ID)
				_, vb, _ := sec.Lookup(b.Name, d.ID)
				if d.Group != "headline" || m == nil || va == nil || vb == nil || !va.Applicable || !vb.Applicable {
					continue
				}
				t, diffs, ok := comparePaired(m, a.Name, a.Records, b.Name, b.Records)
				if !ok {
					continue
				}
				if diffs != nil {
					pending = append(pending, pendingPaired{m: m, pair: len(out.Pairs), test: len(p.Tests), d: diffs})
				}
				p.Tests = append(p.Tests, t)
			}
			out.Pairs = append(out.Pairs, p)
		}
	}
	drawPaired(out, pending)
	return out
}

// pendingPaired is a paired bootstrap still to draw: its test's place and the
// per-question differences.
type pendingPaired struct {
	m          *Metric
	pair, test int
	d          []float64
}

// drawPaired finishes the pending paired bootstraps. Like Aggregate's intervals, every
// difference vector of length n is resampled from the same draws (bootstrapMeansOf):
// exactly what PairedBootstrap draws for it alone, drawn once for all pairs instead of
// once per pair (21 pairs of 7 systems drew 21 times).
func drawPaired(out *PairedSection, pending []pendingPaired) {
	byN := map[int][]int{}
	var ns []int
	for k, pp := range pending {
		n := len(pp.d)
		if byN[n] == nil {
			ns = append(ns, n)
		}
		byN[n] = append(byN[n], k)
	}
	for _, n := range ns {
		ks := byN[n]
		cols := make([][]float64, len(ks))
		for c, k := range ks {
			cols[c] = pending[k].d
		}
		for c, ms := range bootstrapMeansOf(n, cols) {
			pp := pending[ks[c]]
			t := &out.Pairs[pp.pair].Tests[pp.test]
			_, lo, hi, p := pairedFromMeans(pp.d, ms)
			finishPairedBootstrap(pp.m, t, lo, hi, p)
		}
	}
}

// ComparePaired tests metric m between system A's and system B's records of the same
// questions (paired by record index; a question counts when both judged it and, for a
// metric over the questions with a value, both have one). ok is false when no question
// pairs. The compare command uses it across two runs of one dataset.
func ComparePaired(m *Metric, sysA string, recsA []record.Record, sysB string, recsB []record.Record) (PairedTest, bool) {
	t, d, ok := comparePaired(m, sysA, recsA, sysB, recsB)
	if ok && d != nil {
		_, lo, hi, p := PairedBootstrap(d, make([]float64, len(d)))
		finishPairedBootstrap(m, &t, lo, hi, p)
	}
	return t, ok
}

// comparePaired is ComparePaired up to the bootstrap: for a metric that is not 0/1 and
// whose differences vary, it returns them (d) and leaves the test to finish; otherwise
// the test is complete and d is nil.
func comparePaired(m *Metric, sysA string, recsA []record.Record, sysB string, recsB []record.Record) (t PairedTest, d []float64, ok bool) {
	return comparePairedAt(m, sysA, recsA, sysB, recsB, nil)
}

// comparePairedAt is comparePaired over the records of recsA at positions at (nil: all).
func comparePairedAt(m *Metric, sysA string, recsA []record.Record, sysB string, recsB []record.Record, at []int) (t PairedTest, d []float64, ok bool) {
	partner := pairRecords(recsA, recsB)
	n := len(recsA)
	if at != nil {
		n = len(at)
	}
	xa, xb := make([]float64, 0, n), make([]float64, 0, n)
	for k := range n {
		i := k
		if at != nil {
			i = at[k]
		}
		ra := &recsA[i]
		rb := partner(i)
		if !ra.Judged() || rb == nil {
			continue
		}
		va, oka := m.Value(sysA, ra)
		vb, okb := m.Value(sysB, rb)
		if m.Over == JudgedWithValue && (!oka || !okb) {
			continue
		}
		xa, xb = append(xa, va), append(xb, vb)
	}
	if len(xa) == 0 {
		return PairedTest{}, nil, false
	}
	t = PairedTest{Metric: m.ID, N: len(xa), A: mean(xa), B: mean(xb)}
	t.Diff = t.A - t.B
	if m.Binary {
		both, aOnly, bOnly := 0, 0, 0
		for i := range xa {
			switch {
			case xa[i] != 0 && xb[i] != 0:
				both++
			case xa[i] != 0:
				aOnly++
			case xb[i] != 0:
				bOnly++
			}
		}
		t.Method, t.AOnly, t.BOnly = MethodMcNemar, &aOnly, &bOnly
		t.P = McNemarExact(aOnly, bOnly)
		lo, hi := NewcombePaired(both, aOnly, bOnly, len(xa)-both-aOnly-bOnly)
		t.DiffLow, t.DiffHigh = &lo, &hi
		t.Text = fmt.Sprintf("%s (a_only %d, b_only %d) %s", signed(m.Unit, t.Diff), aOnly, bOnly, FormatP(t.P))
		return t, nil, true
	}
	d = make([]float64, len(xa))
	for i := range xa {
		d[i] = xa[i] - xb[i]
	}
	if constant(d) {
		_, lo, hi, p := pairedConstant(d)
		finishPairedBootstrap(m, &t, lo, hi, p)
		return t, nil, true
	}
	return t, d, true
}

// pairRecords returns the record of recsB judged on the question of recsA[i] (the
// last one with its index), nil when there is none. Two systems of one run list the
// same questions in the same order, which pairs them by position; only other lists
// (compare's two runs may differ) need a map.
func pairRecords(recsA, recsB []record.Record) func(i int) *record.Record {
	aligned := len(recsA) == len(recsB)
	for i := 0; aligned && i < len(recsA); i++ {
		aligned = recsA[i].Index == recsB[i].Index && (i == 0 || recsA[i].Index > recsA[i-1].Index)
	}
	if aligned { // increasing indices: each question once in each list
		return func(i int) *record.Record {
			if !recsB[i].Judged() {
				return nil
			}
			return &recsB[i]
		}
	}
	byIndex := make(map[int]*record.Record, len(recsB))
	for i := range recsB {
		if recsB[i].Judged() {
			byIndex[recsB[i].Index] = &recsB[i]
		}
	}
	return func(i int) *record.Record { return byIndex[recsA[i].Index] }
}

// finishPairedBootstrap fills a paired bootstrap test's interval, p-value and text.
func finishPairedBootstrap(m *Metric, t *PairedTest, lo, hi, p float64) {
	t.Method, t.DiffLow, t.DiffHigh, t.P = MethodPairedBS, &lo, &hi, p
	t.Text = fmt.Sprintf("%s [%s, %s] %s", signed(m.Unit, t.Diff), m.Unit.Format(lo), m.Unit.Format(hi), FormatP(t.P))
}

// signed prints a difference in the metric's unit with its sign.
func signed(u Unit, d float64) string {
	s := u.Format(d)
	if d > 0 || (d == 0 && s[0] != '-') {
		return "+" + s
	}
	return s
}

// FormatP prints a p-value: "p=0.0066" (four decimals), or "p<0.0001".
func FormatP(p float64) string {
	if p < 0.0001 {
		return "p<0.0001"
	}
	return fmt.Sprintf("p=%.4f", p)
}
