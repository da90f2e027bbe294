package catalog

import (
	"math"
	"strconv"
	"strings"
)

// Prices are held as decimal strings like the platform sends them and handled
// as whole cents, so that sorting and range matching never meet float error.

func formatCents(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return sign + strconv.FormatInt(c/100, 10) + "." + twoDigits(c%100)
}

func twoDigits(n int64) string {
	if n < 10 {
		return "0" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}

// parseCents reads a decimal price such as "19.99" or "20"; it returns 0 for
// "" or anything malformed, which only a broken demo could contain.
func parseCents(s string) int64 {
	whole, frac, _ := strings.Cut(s, ".")
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0
	}
	frac = (frac + "00")[:2]
	f, err := strconv.ParseInt(frac, 10, 64)
	if err != nil {
		return 0
	}
	return w*100 + f
}

// pricing is the presentment conversion a request asks for: every displayed
// price is multiplied by rate and then by adjustment, and rounded half away
// from zero to the cent once, at the end.
type pricing struct {
	rate       float64
	adjustment float64
}

var unitPricing = pricing{rate: 1, adjustment: 1}

func (p pricing) identity() bool { return p.rate == 1 && p.adjustment == 1 }

func (p pricing) convert(cents int64) int64 {
	if p.identity() {
		return cents
	}
	return int64(math.Round(float64(cents) * p.rate * p.adjustment))
}

// convertString converts a decimal price string; "" (no compare-at price)
// stays "".
func (p pricing) convertString(s string) string {
	if s == "" {
		return ""
	}
	return formatCents(p.convert(parseCents(s)))
}
