//go:build !amd64

package metrics

import "unsafe"

// dot2Lanes is two columns' four lane sums over the first 4*blocks terms (the assembly
// of dot_amd64.s, in Go for other CPUs).
func dot2Lanes(c, x, y *float64, blocks int) (x0, x1, x2, x3, y0, y1, y2, y3 float64) {
	n := 4 * blocks
	cs, xs, ys := unsafe.Slice(c, n), unsafe.Slice(x, n), unsafe.Slice(y, n)
	for i := 0; i < n; i += 4 {
		x0 += float64(cs[i] * xs[i])
		x1 += float64(cs[i+1] * xs[i+1])
		x2 += float64(cs[i+2] * xs[i+2])
		x3 += float64(cs[i+3] * xs[i+3])
		y0 += float64(cs[i] * ys[i])
		y1 += float64(cs[i+1] * ys[i+1])
		y2 += float64(cs[i+2] * ys[i+2])
		y3 += float64(cs[i+3] * ys[i+3])
	}
	return
}
