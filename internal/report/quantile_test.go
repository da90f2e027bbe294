package report

import (
	"math"
	"testing"
)

// The values a spreadsheet's PERCENTILE.INC gives for the same data.
func TestQuantileMatchesPercentileInc(t *testing.T) {
	for _, tc := range []struct {
		values []float64
		p      float64
		want   float64
	}{
		{[]float64{7}, 0.5, 7},
		{[]float64{7}, 0.9, 7},
		{[]float64{1, 2}, 0.5, 1.5},
		{[]float64{1, 2, 3, 4}, 0.5, 2.5},
		{[]float64{1, 2, 3, 4}, 0.9, 3.7},
		{[]float64{1, 2, 3, 4, 5}, 0.5, 3},
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.9, 9.1},
		{[]float64{0, 10}, 0.9, 9},
		{[]float64{3, 3, 3}, 0.9, 3},
		{[]float64{1, 2, 3, 4}, 1, 4},
		{[]float64{1, 2, 3, 4}, 0, 1},
	} {
		got, ok := quantile(tc.values, tc.p)
		if !ok || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("quantile(%v, %v) = %v, want %v", tc.values, tc.p, got, tc.want)
		}
	}
	if _, ok := quantile(nil, 0.5); ok {
		t.Error("a quantile of no values")
	}
}

// Against the definition, on every small sample: the p-quantile is
// x[floor(h)] + (h - floor(h)) * (x[floor(h)+1] - x[floor(h)]), h = (n-1)p.
func TestQuantileAgainstTheDefinition(t *testing.T) {
	for n := 1; n <= 40; n++ {
		values := make([]float64, n)
		for i := range values {
			values[i] = float64(i*i) / 3
		}
		for _, p := range []float64{0.5, 0.9} {
			h := float64(n-1) * p
			i := int(h)
			want := values[i]
			if i+1 < n {
				want += (h - float64(i)) * (values[i+1] - values[i])
			}
			if got, _ := quantile(values, p); math.Abs(got-want) > 1e-9 {
				t.Fatalf("n %d p %v: %v, want %v", n, p, got, want)
			}
		}
	}
}
