package cli

import "math"

// pctOf is two_pass.json's percentage (n of d, two decimals), for expected values; the
// report computes it in the run layer.
func pctOf(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return math.Round(float64(n)*10000/float64(d)) / 100
}
