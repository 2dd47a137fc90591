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

// TestBootstrapMeansOfExact: the sparse, split bootstrap gives bit-identical means to the
// dense one for lengths with every remainder mod 4, signs, zeros, 0/1 columns, and a
// column with an infinity; with 1 column and with enough to be split over CPUs.
func TestBootstrapMeansOfExact(t *testing.T) {
	r := rng{s: 7}
	u := func() float64 { return float64(r.next()>>11)/(1<<53) - 0.3 }
	for _, n := range []int{1, 2, 3, 5, 6, 7, 64, 97, 972} {
		for _, k := range []int{1, 9} {
			cols := make([][]float64, k)
			for j := range cols {
				cols[j] = make([]float64, n)
				for i := range cols[j] {
					switch j % 3 {
					case 0:
						cols[j][i] = u()
					case 1:
						cols[j][i] = math.Round(u() + 0.3)
					default:
						cols[j][i] = -u() * 1e6
					}
				}
			}
			if k > 1 {
				cols[k-1][n/2] = math.Inf(1)
			}
			got, want := bootstrapMeansOf(n, cols), referenceMeansOf(n, cols)
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

func BenchmarkBootstrapMeansOf(b *testing.B) {
	r := rng{s: 7}
	cols := make([][]float64, 21)
	for j := range cols {
		cols[j] = make([]float64, 972)
		for i := range cols[j] {
			cols[j][i] = float64(r.next()>>11) / (1 << 53)
		}
	}
	b.Run("new", func(b *testing.B) {
		for b.Loop() {
			bootstrapMeansOf(972, cols)
		}
	})
	b.Run("dense", func(b *testing.B) {
		for b.Loop() {
			referenceMeansOf(972, cols)
		}
	})
}
