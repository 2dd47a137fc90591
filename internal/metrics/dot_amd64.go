//go:build amd64

package metrics

// dot2Lanes is two columns' four lane sums over the first 4*blocks terms, in assembly
// (dot_amd64.s): SSE2, which every amd64 CPU has, adds two lanes per instruction.
//
//go:noescape
func dot2Lanes(c, x, y *float64, blocks int) (x0, x1, x2, x3, y0, y1, y2, y3 float64)
