package watch

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/storectl/storectl/internal/exitcode"
)

var alertPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^pending\s*(>=|>)\s*(\d+)(?:\s+by\s+(variant|product))?$`)
})

// ParseAlert reads an --alert: 'pending>=N', 'pending>N', each optionally
// followed by 'by variant' (the default) or 'by product'.
func ParseAlert(expr string) (Alert, error) {
	text := strings.Join(strings.Fields(strings.ToLower(expr)), " ")
	m := alertPattern().FindStringSubmatch(text)
	if m == nil {
		return Alert{}, exitcode.UsageHint(fmt.Errorf("--alert %q is not an alert storectl knows", expr),
			"write 'pending>=N' (per variant) or 'pending>=N by product', for example --alert 'pending>=20'")
	}
	n, err := strconv.Atoi(m[2])
	if err != nil || n > 1<<30 {
		return Alert{}, exitcode.Usagef("--alert %q: %s is too large a threshold", expr, m[2])
	}
	if m[1] == ">" {
		n++
	}
	if n < 1 {
		return Alert{}, exitcode.Usagef("--alert %q never fires below and so never crosses: give a threshold of 1 or more", expr)
	}
	name := "pending" + m[1] + m[2]
	if m[3] == "product" {
		name += " by product"
	}
	return Alert{Name: name, Min: n, ByProduct: m[3] == "product"}, nil
}
