package metrics

import "math/bits"

// next is splitmix64's step: the oracle for the bootstrap's batched draws.
func (r *rng) next() uint64 {
	r.s += gamma
	return mix64(r.s)
}

// intn draws uniformly from [0, n) by Lemire's multiply-shift (bias below n/2^64).
func (r *rng) intn(n int) int {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int(hi)
}
