package metrics

import "math/bits"

// The bootstrap's inner loop (bootstrapMeansOf), made cheaper without changing a bit.
//
// A resampled mean is dot(counts, col) / n: four running sums ("lanes"), question i
// added to lane i mod 4 (the last n mod 4 questions to lane 0), in question order, then
// (s0 + s1) + (s2 + s3). A term c*x with x = ±0 is a zero (a count is finite), and
// adding a zero never changes a lane: a lane starts at +0 and, rounding to nearest, a
// sum is -0 only when both addends are, so a lane is never -0 and s + (±0) = s. So a
// column with mostly zero values (the paired differences of two systems, which agree
// on most questions) sums only its non-zero terms, each in its lane and in order, and
// gets dot's bits. (Zero counts cannot be skipped so cheaply: 0 * Inf is NaN, and
// gathering the non-zero counts of a resample, about 63% of them, costs more than the
// dense loop saves.)

// gamma is splitmix64's increment: its state after m draws is the seed plus m * gamma
// (mod 2^64), so a resample's draws can start without drawing the ones before it.
const gamma = 0x9e3779b97f4a7c15

// lanes are indices split by dot's lane, each in increasing order.
type lanes [4][]int32

// laneOf is the lane dot adds question i of n to.
func laneOf(i, n int) int {
	if i >= n&^3 {
		return 0
	}
	return i & 3
}

// columnPlan is how a column's dot products are summed: over its non-zero indices
// (sparse), or over every index (dense: nil).
type columnPlan struct {
	col    []float64
	sparse *lanes
}

// planColumn makes col sparse when at most a third of its values are non-zero: below
// that, gathering its terms costs less than the dense loop.
func planColumn(n int, col []float64) columnPlan {
	col = col[:n]
	nonZero := 0
	for _, x := range col {
		if x != 0 {
			nonZero++
		}
	}
	p := columnPlan{col: col}
	if nonZero*3 <= n {
		p.sparse = &lanes{}
		for i, x := range col {
			if x != 0 {
				k := laneOf(i, n)
				p.sparse[k] = append(p.sparse[k], int32(i))
			}
		}
	}
	return p
}

// resampleMeans fills flat[j*B+b] with column j's mean in resample b, for b in [from, to).
func resampleMeans(n int, plans []columnPlan, flat []float64, from, to int) {
	counts := make([]float64, n)
	var dense, sparse []int
	for j := range plans {
		if plans[j].sparse != nil {
			sparse = append(sparse, j)
		} else {
			dense = append(dense, j)
		}
	}
	for b := from; b < to; b++ {
		drawCounts(counts, BootstrapSeed+uint64(b)*uint64(n)*gamma)
		for k := 0; k < len(dense); k += 2 { // the dense columns two at a time
			j := dense[k]
			if k+1 == len(dense) {
				flat[j*BootstrapResamples+b] = dot(counts, plans[j].col) / float64(n)
				break
			}
			j2 := dense[k+1]
			s, s2 := dot2(counts, plans[j].col, plans[j2].col)
			flat[j*BootstrapResamples+b] = s / float64(n)
			flat[j2*BootstrapResamples+b] = s2 / float64(n)
		}
		for _, j := range sparse {
			flat[j*BootstrapResamples+b] = laneDot(plans[j].sparse, counts, plans[j].col) / float64(n)
		}
	}
}

// drawCounts sets counts to one resample of len(counts) questions: how many of
// len(counts) draws (rng.intn) of the generator at state s fell on each. It steps the
// generator's state itself, in a register: through rng's pointer the state would live
// in memory, and the draws are the bootstrap's hottest loop.
//
//go:noinline
func drawCounts(counts []float64, s uint64) {
	clear(counts)
	n := uint64(len(counts))
	for range n {
		s += gamma
		i, _ := bits.Mul64(mix64(s), n) // rng.intn
		counts[i]++
	}
}

// laneDot is dot(counts, col) over the indices in l only: each lane's terms in the
// order dot adds them, and the lanes summed as dot sums them.
func laneDot(l *lanes, counts, col []float64) float64 {
	var s0, s1, s2, s3 float64
	a, b, c, d := l[0], l[1], l[2], l[3]
	m := min(len(a), len(b), len(c), len(d))
	for j := 0; j < m; j++ { // four lanes at a time, so the additions do not wait on each other
		ia, ib, ic, id := a[j], b[j], c[j], d[j]
		s0 += float64(counts[ia] * col[ia])
		s1 += float64(counts[ib] * col[ib])
		s2 += float64(counts[ic] * col[ic])
		s3 += float64(counts[id] * col[id])
	}
	for _, i := range a[m:] {
		s0 += float64(counts[i] * col[i])
	}
	for _, i := range b[m:] {
		s1 += float64(counts[i] * col[i])
	}
	for _, i := range c[m:] {
		s2 += float64(counts[i] * col[i])
	}
	for _, i := range d[m:] {
		s3 += float64(counts[i] * col[i])
	}
	return (s0 + s1) + (s2 + s3)
}

// dot2 is dot(c, x) and dot(c, y), to the bit (each lane is dot's scalar sum), two
// columns at once, which keeps more additions in flight than dot's four.
func dot2(c, x, y []float64) (float64, float64) {
	n := len(c)
	x, y = x[:n], y[:n]
	blocks := n / 4
	if blocks == 0 {
		return dot(c, x), dot(c, y)
	}
	var x0, x1, x2, x3, y0, y1, y2, y3 float64
	cb := c[:4*blocks]
	xb, yb := x[:len(cb)], y[:len(cb)]
	for i := 0; i+3 < len(cb); i += 4 {
		x0 += float64(cb[i] * xb[i])
		x1 += float64(cb[i+1] * xb[i+1])
		x2 += float64(cb[i+2] * xb[i+2])
		x3 += float64(cb[i+3] * xb[i+3])
		y0 += float64(cb[i] * yb[i])
		y1 += float64(cb[i+1] * yb[i+1])
		y2 += float64(cb[i+2] * yb[i+2])
		y3 += float64(cb[i+3] * yb[i+3])
	}
	for i := 4 * blocks; i < n; i++ { // dot's tail, into lane 0
		x0 += float64(c[i] * x[i])
		y0 += float64(c[i] * y[i])
	}
	return (x0 + x1) + (x2 + x3), (y0 + y1) + (y2 + y3)
}

// dot is sum(a[i] x b[i]) with four partial sums, so the additions do not wait on
// each other. Every product is rounded on its own (the float64 conversion): Go may fuse
// x*y+z into one FMA instruction on arm64, ppc64 and s390x, which would give other bits
// there than here; the conversion forbids it, so the means are the same on every CPU.
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += float64(a[i] * b[i])
		s1 += float64(a[i+1] * b[i+1])
		s2 += float64(a[i+2] * b[i+2])
		s3 += float64(a[i+3] * b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += float64(a[i] * b[i])
	}
	return (s0 + s1) + (s2 + s3)
}
