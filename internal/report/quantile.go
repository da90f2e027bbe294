package report

import (
	"math"
	"slices"
)

// quantile is the p-quantile (0 ≤ p ≤ 1) of sorted values, exactly, by
// linear interpolation between the closest ranks: what a spreadsheet's
// PERCENTILE.INC (and NumPy's default) gives, so a merchant can check it.
// ok is false for no values.
func quantile(sorted []float64, p float64) (float64, bool) {
	n := len(sorted)
	if n == 0 {
		return 0, false
	}
	lo, frac := rank(n, p)
	if frac == 0 || lo+1 >= n {
		return sorted[lo], true
	}
	return sorted[lo] + frac*(sorted[lo+1]-sorted[lo]), true
}

// rank is where the p-quantile of n sorted values falls: the 0-based rank
// at or below it, and how far it lies towards the next.
func rank(n int, p float64) (int, float64) {
	h := float64(n-1) * p
	lo := math.Floor(h)
	return int(lo), h - lo
}

// Quantiles are the median and the 90th percentile, null with no values.
type Quantiles struct {
	Median *float64 `json:"median"`
	P90    *float64 `json:"p90"`
}

// AgeQuantiles add the largest value.
type AgeQuantiles struct {
	Median *float64 `json:"median"`
	P90    *float64 `json:"p90"`
	Max    *float64 `json:"max"`
}

// quantilesOf sorts values and takes their median and 90th percentile.
func quantilesOf(values []float64) Quantiles {
	slices.Sort(values)
	return Quantiles{Median: ptr(quantile(values, 0.5)), P90: ptr(quantile(values, 0.9))}
}

func ptr(v float64, ok bool) *float64 {
	if !ok {
		return nil
	}
	return &v
}
