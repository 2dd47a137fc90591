package judge

import (
	"math"
	"slices"
)

// This file holds the efficiency rewards as the BIRD scripts compute them from a list of
// per-iteration time ratios (gold time / prediction time). The timing itself is in
// timing.go.

// CleanAbnormal keeps the ratios strictly inside mean ± 3 population standard
// deviations, as BIRD's evaluation_ves.py clean_abnormal does.
//
// Quirk (BIRD-ves-constant): when every ratio is the same, the standard deviation is 0 and
// the strict bounds keep nothing; the official script then divides by zero and scores the
// question 0. OfficialRatio reproduces that by returning 0.
func CleanAbnormal(ratios []float64) []float64 {
	if len(ratios) == 0 {
		return nil
	}
	mean, std := meanStd(ratios)
	lo, hi := mean-3*std, mean+3*std
	out := make([]float64, 0, len(ratios))
	for _, x := range ratios {
		if x > lo && x < hi {
			out = append(out, x)
		}
	}
	return out
}

// OfficialRatio is the official aggregate: the mean of the cleaned ratios, 0 when
// nothing survives cleaning (see CleanAbnormal).
func OfficialRatio(ratios []float64) float64 {
	c := CleanAbnormal(ratios)
	if len(c) == 0 {
		return 0
	}
	m, _ := meanStd(c)
	return m
}

// VESReward is the BIRD paper's reward for a correct prediction: sqrt(ratio). A ratio of 0
// (nothing measured) earns 0.
func VESReward(ratio float64) float64 {
	if ratio <= 0 || math.IsNaN(ratio) {
		return 0
	}
	return math.Sqrt(ratio)
}

// RVESReward is BIRD mini-dev's bucketed reward for a correct prediction: 1.25 when the
// prediction is at least twice as fast as the gold, 1 when at least as fast, 0.75 down
// to half as fast, 0.5 down to a quarter, 0.25 below; 0 for a ratio of 0 (nothing
// measured). The R-VES score averages sqrt(reward).
func RVESReward(ratio float64) float64 {
	switch {
	case ratio <= 0 || math.IsNaN(ratio):
		return 0
	case ratio >= 2:
		return 1.25
	case ratio >= 1:
		return 1
	case ratio >= 0.5:
		return 0.75
	case ratio >= 0.25:
		return 0.5
	default:
		return 0.25
	}
}

// Median is the middle of xs (the mean of the two middle values for an even count); 0 for
// none. xs is not modified.
func Median(xs []float64) float64 {
	return quantile(xs, 0.5)
}

// IQR is the interquartile range of xs (linear interpolation between order statistics).
func IQR(xs []float64) float64 {
	return quantile(xs, 0.75) - quantile(xs, 0.25)
}

func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	pos := q * float64(len(s)-1)
	i := int(pos)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	frac := pos - float64(i)
	return s[i] + frac*(s[i+1]-s[i])
}

func meanStd(xs []float64) (mean, std float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(xs)))
}
