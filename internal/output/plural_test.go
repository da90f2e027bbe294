package output

import "testing"

func TestPlural(t *testing.T) {
	for want, n := range map[string]int{"0 variants": 0, "1 variant": 1, "12 variants": 12} {
		if got := Plural(n, "variant"); got != want {
			t.Errorf("Plural(%d) = %q", n, got)
		}
	}
}

func TestCount(t *testing.T) {
	for want, c := range map[string]struct {
		n      int
		plural string
	}{
		"1 coming-soon rule": {1, "coming-soon rules"}, "2 coming-soon rules": {2, "coming-soon rules"},
		"1 variant in pre-order offers": {1, "variants in pre-order offers"}, "1 entry": {1, "entries"},
		"1 address": {1, "addresses"}, "0 submissions": {0, "submissions"}, "1 submission": {1, "submissions"},
	} {
		if got := Count(c.n, c.plural); got != want {
			t.Errorf("Count(%d, %q) = %q", c.n, c.plural, got)
		}
	}
}
