package metrics

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// VsBestSection is summary.json's "vs_best" section: the answer to "which system is
// better, and how sure", read from the paired section. For each metric the registry
// declares comparable (Display.Compare) it names the best system and compares every other
// system with it: the difference system - best with its 95% interval, the paired test's
// p-value, the p-value Holm-corrected over that metric's pairs, and a verdict. The first
// screen (terminal, Markdown, the top of the HTML report) prints the metrics marked Shown.
type VsBestSection struct {
	Alpha float64 `json:"alpha"`
	// Headline is the metric every first screen shows, significant or not (EX).
	Headline string         `json:"headline"`
	Metrics  []VsBestMetric `json:"metrics"`
}

// VsBestMetric is one metric's comparisons against its best system.
type VsBestMetric struct {
	Metric string `json:"metric"`
	Label  string `json:"label"`
	// Best has the best overall value (highest, or lowest when lower is better); on a tie
	// the first in the run's order.
	Best      string `json:"best"`
	BestText  string `json:"best_text"`
	Pairs     int    `json:"pairs"`     // comparisons made: the family Holm corrects over
	Corrected bool   `json:"corrected"` // p_holm differs from p: more than one pair
	// Significant: some system differs from the best at Alpha after the correction.
	Significant bool `json:"significant"`
	// SameAs names an earlier metric whose every test this one repeats (EX spider is EX
	// under Spider semantics); such a metric is never shown.
	SameAs string `json:"same_as,omitempty"`
	// Shown: the headline metric, or a significant one that repeats no other.
	Shown bool        `json:"shown"`
	Rows  []VsBestRow `json:"rows"`
}

// VsBestRow is one system against the best.
type VsBestRow struct {
	System string `json:"system"`
	// N counts the paired questions; Diff = system - best over them, in the value's own
	// scale, with its 95% interval (DiffLow, DiffHigh), as in the paired section.
	N        int      `json:"n"`
	Diff     float64  `json:"diff"`
	DiffLow  *float64 `json:"diff_low,omitempty"`
	DiffHigh *float64 `json:"diff_high,omitempty"`
	P        float64  `json:"p_value"`
	PHolm    float64  `json:"p_holm"`
	// Verdict is VerdictSame, VerdictBetter or VerdictWorse, from PHolm at Alpha.
	Verdict string `json:"verdict"`
	// Text prints the difference, interval and p-value as every output shows them.
	Text string `json:"text"`
}

// The verdicts of a comparison with the best.
const (
	VerdictSame   = "no detectable difference"
	VerdictBetter = "better"
	VerdictWorse  = "worse"
)

// Alpha is the level of the verdicts.
const Alpha = 0.05

// Holm adjusts p-values for multiple comparisons (Holm's step-down method): sorted
// ascending, the i-th (from 0) of m becomes max over j <= i of min(1, (m - j) p_j). It
// controls the family-wise error rate without assuming the tests independent. The result
// is in the order of ps.
func Holm(ps []float64) []float64 {
	m := len(ps)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(ps[a], ps[b]) })
	out := make([]float64, m)
	run := 0.0
	for rank, i := range idx {
		run = math.Max(run, math.Min(1, float64(m-rank)*ps[i]))
		out[i] = run
	}
	return out
}

// VsBest builds the section from the metrics section and the paired section; nil with
// fewer than two systems. It computes no statistic of its own beyond choosing the best,
// orienting the paired tests and Holm's correction.
func VsBest(ms []Metric, sec *Section, paired *PairedSection) *VsBestSection {
	if sec == nil || paired == nil || len(sec.Systems) < 2 {
		return nil
	}
	out := &VsBestSection{Alpha: Alpha, Metrics: []VsBestMetric{}}
	byID := map[string]*Metric{}
	for i := range ms {
		byID[ms[i].ID] = &ms[i]
	}
	for _, d := range sec.Definitions {
		m := byID[d.ID]
		if m == nil || !m.Display.Compare {
			continue
		}
		vm, ok := vsBestMetric(d, sec, paired)
		if !ok {
			continue
		}
		if out.Headline == "" {
			out.Headline = d.ID
		}
		for _, prev := range out.Metrics {
			if prev.SameAs == "" && sameTests(prev, vm) {
				vm.SameAs = prev.Metric
				break
			}
		}
		vm.Shown = vm.SameAs == "" && (d.ID == out.Headline || vm.Significant)
		out.Metrics = append(out.Metrics, vm)
	}
	return out
}

// bestSystem is the system with the best value of metric d (the first of equals) and its
// value's text; ok is false when no system has a value.
func bestSystem(d Definition, sec *Section) (name, text string, ok bool) {
	best := math.NaN()
	for _, sv := range sec.Systems {
		_, v, _ := sec.Lookup(sv.System, d.ID)
		x := v.Float()
		if math.IsNaN(x) {
			continue
		}
		if math.IsNaN(best) || (d.HigherIsBetter && x > best) || (!d.HigherIsBetter && x < best) {
			best, name, text = x, sv.System, v.Text
		}
	}
	return name, text, name != ""
}

// vsBestMetric compares every system carrying metric d with the best; ok is false when
// fewer than two systems can be compared.
func vsBestMetric(d Definition, sec *Section, paired *PairedSection) (VsBestMetric, bool) {
	vm := VsBestMetric{Metric: d.ID, Label: d.Label, Rows: []VsBestRow{}}
	vm.Best, vm.BestText, _ = bestSystem(d, sec)
	if vm.Best == "" {
		return vm, false
	}
	for _, sv := range sec.Systems {
		if sv.System == vm.Best {
			continue
		}
		if t, ok := orientedTest(paired, sv.System, vm.Best, d.ID); ok {
			vm.Rows = append(vm.Rows, VsBestRow{System: sv.System, N: t.N, Diff: t.Diff, DiffLow: t.DiffLow, DiffHigh: t.DiffHigh, P: t.P})
		}
	}
	if len(vm.Rows) == 0 {
		return vm, false
	}
	ps := make([]float64, len(vm.Rows))
	for i := range vm.Rows {
		ps[i] = vm.Rows[i].P
	}
	vm.Pairs, vm.Corrected = len(ps), len(ps) > 1
	for i, ph := range Holm(ps) {
		r := &vm.Rows[i]
		r.PHolm, r.Verdict = ph, VerdictSame
		if ph < Alpha {
			vm.Significant = true
			r.Verdict = VerdictWorse
			if (r.Diff > 0) == d.HigherIsBetter {
				r.Verdict = VerdictBetter
			}
		}
		r.Text = vsBestText(d.Unit, r, vm.Corrected)
	}
	return vm, true
}

// orientedTest is the paired test of system a against system b on metric id, as a - b,
// whichever order the paired section holds the pair in.
func orientedTest(paired *PairedSection, a, b, id string) (PairedTest, bool) {
	for _, p := range paired.Pairs {
		if (p.A != a || p.B != b) && (p.A != b || p.B != a) {
			continue
		}
		for _, t := range p.Tests {
			if t.Metric != id {
				continue
			}
			if p.A == a {
				return t, true
			}
			t.A, t.B, t.Diff = t.B, t.A, 0-t.Diff
			if t.Diff == 0 {
				t.Diff = 0 // +0: a tie prints "+0.00", not "-0.00"
			}
			t.AOnly, t.BOnly = t.BOnly, t.AOnly
			if t.DiffLow != nil && t.DiffHigh != nil {
				lo, hi := -*t.DiffHigh, -*t.DiffLow
				t.DiffLow, t.DiffHigh = &lo, &hi
			}
			return t, true
		}
	}
	return PairedTest{}, false
}

// sameTests reports whether two metrics compare the same systems with the same results.
func sameTests(a, b VsBestMetric) bool {
	if a.Best != b.Best || len(a.Rows) != len(b.Rows) {
		return false
	}
	for i := range a.Rows {
		x, y := a.Rows[i], b.Rows[i]
		if x.System != y.System || x.N != y.N || x.Diff != y.Diff || x.P != y.P {
			return false
		}
	}
	return true
}

// vsBestText prints a row: "-0.51 [-2.88, 1.85] p=0.7289", then ", Holm p=1.0000"
// when corrected.
func vsBestText(u Unit, r *VsBestRow, corrected bool) string {
	s := DiffText(u, r.Diff, r.DiffLow, r.DiffHigh) + " " + FormatP(r.P)
	if corrected {
		s += ", Holm " + FormatP(r.PHolm)
	}
	return s
}

// DiffText prints a difference with its interval when it has one: "-0.51 [-2.88, 1.85]".
func DiffText(u Unit, d float64, lo, hi *float64) string {
	s := signed(u, d)
	if lo != nil && hi != nil {
		s += fmt.Sprintf(" [%s, %s]", u.Format(*lo), u.Format(*hi))
	}
	return s
}
