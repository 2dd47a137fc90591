package metrics

import (
	"math"
	"sort"
	"testing"
)

// referenceMeansOf is bootstrapMeansOf as first written: dense counts, dot, one column
// after another. The faster one must give the same bits.
func referenceMeansOf(n int, cols [][]float64) [][]float64 {
	out := make([][]float64, len(cols))
	for j := range out {
		out[j] = make([]float64, BootstrapResamples)
	}
	counts := make([]float64, n)
	r := rng{s: BootstrapSeed}
	for b := 0; b < BootstrapResamples; b++ {
		clear(counts)
		for i := 0; i < n; i++ {
			counts[r.intn(n)]++
		}
		for j, col := range cols {
			out[j][b] = dot(counts, col) / float64(n)
		}
	}
	for j := range out {
		sort.Float64s(out[j])
	}
	return out
}

// TestBootstrapMeansOfExact: the split, partly sparse bootstrap gives bit-identical
// means to the dense one for lengths with every remainder mod 4, signs, zeros (and -0),
// 0/1 columns, mostly-zero columns (summed sparse) with negatives, an infinity or a NaN
// among their few non-zero values, and dense columns with an infinity; with 1 column
// and with enough to be split over CPUs.
func TestBootstrapMeansOfExact(t *testing.T) {
	r := rng{s: 7}
	u := func() float64 { return float64(r.next()>>11)/(1<<53) - 0.3 }
	for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8, 13, 64, 97, 98, 99, 972, 975} {
		for _, k := range []int{1, 2, 10} {
			cols := make([][]float64, k)
			for j := range cols {
				cols[j] = make([]float64, n)
				for i := range cols[j] {
					switch j % 5 {
					case 0:
						cols[j][i] = u()
					case 1:
						cols[j][i] = math.Round(u() + 0.3)
					case 2:
						cols[j][i] = -u() * 1e6
					case 3: // mostly zero: a paired difference
						if x := u(); x > 0.5 {
							cols[j][i] = x
						} else if x < -0.2 {
							cols[j][i] = -x * 3
						} else if x < -0.1 {
							cols[j][i] = math.Copysign(0, -1)
						}
					default: // mostly zero, with one non-finite value
						if u() > 0.55 {
							cols[j][i] = -u()
						}
					}
				}
			}
			if k > 1 {
				cols[k-1][n/2] = math.Inf(1)
			}
			if k > 4 {
				cols[4][n-1] = math.Inf(-1)
				cols[9][n/3] = math.NaN()
			}
			if k > 2 && n > 3 {
				cols[2][3] = 0
			}
			got, want := bootstrapMeansOf(n, cols), referenceMeansOf(n, cols)
			for _, ms := range got {
				sort.Float64s(ms) // the reference's are sorted
			}
			for j := range want {
				for b := range want[j] {
					g, w := got[j][b], want[j][b]
					if math.Float64bits(g) != math.Float64bits(w) && !(math.IsNaN(g) && math.IsNaN(w)) {
						t.Fatalf("n=%d k=%d column %d mean %d: %v, dense %v", n, k, j, b, g, w)
					}
				}
			}
		}
	}
}

// TestPlanColumnSparse: the test above covers the sparse sums only if mostly-zero
// columns are planned sparse and the others dense.
func TestPlanColumnSparse(t *testing.T) {
	if p := planColumn(6, []float64{0, 1, 0, 0, math.Copysign(0, -1), 0}); p.sparse == nil || len(p.sparse[1]) != 1 {
		t.Errorf("a column with one non-zero of 6 is not sparse over that one: %+v", p.sparse)
	}
	if p := planColumn(3, []float64{1, 2, 0}); p.sparse != nil {
		t.Errorf("a column with 2 non-zeros of 3 is sparse")
	}
}

// BenchmarkBootstrapMeansOf: 21 columns of 972 values, as a seven-system summary draws
// them: means of values that are rarely zero (a metric's overall column), and paired
// differences that are zero on 83% of the questions (two systems agree); "dense" is the
// reference loop.
func BenchmarkBootstrapMeansOf(b *testing.B) {
	r := rng{s: 7}
	for _, kind := range []string{"means", "paired"} {
		cols := make([][]float64, 21)
		for j := range cols {
			cols[j] = make([]float64, 972)
			for i := range cols[j] {
				x := float64(r.next()>>11) / (1 << 53)
				if kind == "paired" && x < 0.83 {
					x = 0
				}
				cols[j][i] = x
			}
		}
		b.Run(kind+"/new", func(b *testing.B) { cpuPerOp(b, func() { bootstrapMeansOf(972, cols) }) })
		b.Run(kind+"/dense", func(b *testing.B) { cpuPerOp(b, func() { referenceMeansOf(972, cols) }) })
	}
}

// TestInterval95SameAsSorted: the quickselect percentiles equal those of the sorted
// means for every length near the quantiles' ranks, ties, infinities, NaN and -0.
func TestInterval95SameAsSorted(t *testing.T) {
	r := rng{s: 11}
	u := func() float64 { return float64(r.next()>>11) / (1 << 53) }
	a := (1 - Confidence) / 2
	for _, n := range []int{1, 2, 3, 4, 5, 39, 40, 41, 42, 100, 1999, 2000, 2001} {
		for _, kind := range []string{"uniform", "ties", "constant", "inf", "nan", "negzero", "sorted", "reversed"} {
			xs := make([]float64, n)
			for i := range xs {
				switch kind {
				case "ties":
					xs[i] = math.Floor(u() * 4)
				case "constant":
					xs[i] = 0.5
				case "sorted":
					xs[i] = float64(i)
				case "reversed":
					xs[i] = -float64(i)
				default:
					xs[i] = u() - 0.5
				}
			}
			switch kind {
			case "inf":
				xs[n/2], xs[0] = math.Inf(1), math.Inf(-1)
			case "nan":
				xs[n-1] = math.NaN()
			case "negzero":
				xs[n/3] = math.Copysign(0, -1)
			}
			sorted := append([]float64(nil), xs...)
			sort.Float64s(sorted)
			wlo, whi := quantile(sorted, a), quantile(sorted, 1-a)
			lo, hi := interval95(xs)
			same := func(g, w float64) bool {
				return math.Float64bits(g) == math.Float64bits(w) || (math.IsNaN(g) && math.IsNaN(w))
			}
			if !same(lo, wlo) || !same(hi, whi) {
				t.Errorf("n=%d %s: [%v, %v], sorted [%v, %v]", n, kind, lo, hi, wlo, whi)
			}
		}
	}
}

// TestDot2SameAsDot: the two-column dot gives dot's bits for every
// length mod 4, signs, zeros, infinities and NaN.
func TestDot2SameAsDot(t *testing.T) {
	r := rng{s: 5}
	u := func() float64 { return float64(r.next()>>11)/(1<<53) - 0.4 }
	for n := 0; n <= 41; n++ {
		c, x, y := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range c {
			c[i], x[i], y[i] = float64(r.intn(4)), u()*1e3, -u()
		}
		if n > 5 {
			x[n-2], y[3] = math.Inf(1), math.NaN()
			x[1] = math.Copysign(0, -1)
		}
		gx, gy := dot2(c, x, y)
		for _, p := range [][2]float64{{gx, dot(c, x)}, {gy, dot(c, y)}} {
			if math.Float64bits(p[0]) != math.Float64bits(p[1]) && !(math.IsNaN(p[0]) && math.IsNaN(p[1])) {
				t.Fatalf("n=%d: dot2 %v, dot %v", n, p[0], p[1])
			}
		}
	}
}
