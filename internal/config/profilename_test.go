package config

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// The hand-written check accepts exactly what the documented expression
// does.
func TestProfileNameCheckIsTheExpression(t *testing.T) {
	want := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	names := []string{"", "a", "default", "shop-2.eu_x", ".hidden", "-x", "_x", "a b", "é", "a/b", "a\x00",
		strings.Repeat("a", 64), strings.Repeat("a", 65), "a" + strings.Repeat(".", 63), "a" + strings.Repeat(".", 64)}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("aZ09._-/ é\n:")
	for range 20000 {
		n := make([]rune, r.IntN(70))
		for i := range n {
			n[i] = alphabet[r.IntN(len(alphabet))]
		}
		names = append(names, string(n))
	}
	for _, name := range names {
		if got := CheckProfileName(name) == nil; got != want.MatchString(name) {
			t.Errorf("CheckProfileName(%q) accepts: %v, the expression: %v", name, got, !got)
		}
	}
}
