package output

import "testing"

func TestPlural(t *testing.T) {
	for want, n := range map[string]int{"0 variants": 0, "1 variant": 1, "12 variants": 12} {
		if got := Plural(n, "variant"); got != want {
			t.Errorf("Plural(%d) = %q", n, got)
		}
	}
}
