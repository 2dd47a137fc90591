package metrics

import (
	"math"
	"sort"
)

// interval95 is the 95% percentile interval of the resampled means ms: quantile at
// 2.5% and 97.5% of ms sorted. It reorders ms. Only the four order statistics the two
// quantiles interpolate between are found (quickselect), which costs a fraction of a
// sort: a seven-system summary reads some 300 intervals of 2000 means. With a NaN
// (which a sort places first) or a -0 (whose place among the +0s a sort leaves open)
// among the means, it sorts, so that the result is always the sorted one's.
func interval95(ms []float64) (lo, hi float64) {
	a := (1 - Confidence) / 2
	for _, x := range ms {
		if x != x || (x == 0 && math.Signbit(x)) {
			sort.Float64s(ms)
			return quantile(ms, a), quantile(ms, 1-a)
		}
	}
	o := orderStats{xs: ms}
	lo = o.quantile(a)
	hi = o.quantile(1 - a)
	return lo, hi
}

// orderStats finds order statistics of xs in increasing rank, each by a quickselect of
// the part of xs above the previous one.
type orderStats struct {
	xs   []float64
	base int // xs[:base] are in their sorted places
}

// at is the r-th smallest of xs (from 0); r is at least every earlier r minus one.
func (o *orderStats) at(r int) float64 {
	if r >= o.base {
		nthSmallest(o.xs[o.base:], r-o.base)
		o.base = r + 1
	}
	return o.xs[r]
}

// quantile is quantile(sorted xs, q), from the order statistics it interpolates.
func (o *orderStats) quantile(q float64) float64 {
	n := len(o.xs)
	if n == 0 {
		return math.NaN()
	}
	h := q * float64(n-1)
	i := int(math.Floor(h))
	if i >= n-1 {
		return o.at(n - 1)
	}
	x0 := o.at(i)
	x1 := o.at(i + 1)
	return x0 + (h-float64(i))*(x1-x0)
}

// nthSmallest reorders xs (no NaN) so that xs[k] is its k-th smallest value, with none
// larger before it and none smaller after it. Its partition is three-way, so that many
// equal values (a column that rarely varies) cost no more than distinct ones.
func nthSmallest(xs []float64, k int) {
	lo, hi := 0, len(xs) // k is in [lo, hi)
	for hi-lo > 1 {
		p := median3(xs[lo], xs[lo+(hi-lo)/2], xs[hi-1])
		lt, i, gt := lo, lo, hi // xs[lo:lt] < p, xs[lt:i] == p, xs[gt:hi] > p
		for i < gt {
			switch x := xs[i]; {
			case x < p:
				xs[lt], xs[i] = x, xs[lt]
				lt++
				i++
			case x > p:
				gt--
				xs[gt], xs[i] = x, xs[gt]
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt
		case k >= gt:
			lo = gt
		default:
			return
		}
	}
}

func median3(a, b, c float64) float64 {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b = c
	}
	return max(a, b)
}
