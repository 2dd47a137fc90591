package metrics

import (
	"math"
	"sort"
)

// interval95 is the 95% percentile interval of the resampled means ms: quantile at
// 2.5% and 97.5% of ms sorted. It reorders ms. The two quantiles interpolate between
// order statistics near either end (ranks 49 and 50 of 2000, and their mirrors), so only
// the smallest and the largest few means are found, each by one pass with a small heap,
// which costs a fraction of a sort: a seven-system summary reads some 300 intervals of
// 2000 means. With a NaN (which a sort places first) or a -0 (whose place among the +0s
// a sort leaves open) among the means, or too few of them, it sorts, so that the result
// is always the sorted one's.
func interval95(ms []float64) (lo, hi float64) {
	a := (1 - Confidence) / 2
	n := len(ms)
	k := int(math.Floor(a*float64(n-1))) + 2 // the order statistics below rank k give the lower quantile
	sorts := n < 4*k
	for _, x := range ms {
		if x != x || (x == 0 && math.Signbit(x)) {
			sorts = true
			break
		}
	}
	if sorts {
		sort.Float64s(ms)
		return quantile(ms, a), quantile(ms, 1-a)
	}
	low := smallest(ms, k, false) // the k smallest, ascending
	high := smallest(ms, k, true) // the k largest, descending
	at := func(r int) float64 {   // the r-th smallest of ms
		if r < k {
			return low[r]
		}
		return high[n-1-r] // r >= n-k: the quantiles read ranks within k of either end
	}
	return quantileAt(n, a, at), quantileAt(n, 1-a, at)
}

// quantileAt is quantile(sorted, q) for len(sorted) = n, with sorted[r] = at(r).
func quantileAt(n int, q float64, at func(int) float64) float64 {
	h := q * float64(n-1)
	i := int(math.Floor(h))
	if i >= n-1 {
		return at(n - 1)
	}
	x0, x1 := at(i), at(i+1)
	return x0 + (h-float64(i))*(x1-x0)
}

// smallest returns the k smallest values of xs (no NaN) in increasing order, or with
// largest the k largest in decreasing order: one pass keeping the k best so far in a
// heap whose root is the worst of them, so that most values cost one comparison.
func smallest(xs []float64, k int, largest bool) []float64 {
	h := make([]float64, k)
	sign := 1.0
	if largest {
		sign = -1 // the largest of xs are the smallest of -xs: negation is exact
	}
	for i := range h {
		h[i] = sign * xs[i]
	}
	for i := k/2 - 1; i >= 0; i-- {
		siftDown(h, i)
	}
	for _, x := range xs[k:] {
		if x = sign * x; x < h[0] {
			h[0] = x
			siftDown(h, 0)
		}
	}
	sort.Float64s(h)
	for i := range h {
		h[i] *= sign
	}
	return h
}

// siftDown restores the max-heap h below node i.
func siftDown(h []float64, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h[c+1] > h[c] {
			c++
		}
		if h[i] >= h[c] {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
