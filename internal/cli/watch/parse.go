package watch

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/watch"
)

var alertPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^pending\s*(>=|>)\s*(\d+)(?:\s+by\s+(variant|product))?$`)
})

// parseAlert reads an --alert: 'pending>=N', 'pending>N', each optionally
// followed by 'by variant' (the default) or 'by product'.
func parseAlert(expr string) (mirror.Alert, error) {
	text := strings.Join(strings.Fields(strings.ToLower(expr)), " ")
	m := alertPattern().FindStringSubmatch(text)
	if m == nil {
		return mirror.Alert{}, exitcode.UsageHint(fmt.Errorf("--alert %q is not an alert storectl knows", expr),
			"write 'pending>=N' (per variant) or 'pending>=N by product', for example --alert 'pending>=20'")
	}
	n, err := strconv.Atoi(m[2])
	if err != nil || n > 1<<30 {
		return mirror.Alert{}, exitcode.Usagef("--alert %q: %s is too large a threshold", expr, m[2])
	}
	if m[1] == ">" {
		n++
	}
	if n < 1 {
		return mirror.Alert{}, exitcode.Usagef("--alert %q never fires below and so never crosses: give a threshold of 1 or more", expr)
	}
	name := "pending" + m[1] + m[2]
	if m[3] == "product" {
		name += " by product"
	}
	return mirror.Alert{Name: name, Min: n, ByProduct: m[3] == "product"}, nil
}

// parseForwardTo reads --forward-to: an absolute https URL, or plain http
// to a loopback host (watch.CheckReceiver).
func parseForwardTo(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || u.Opaque != "" {
		return nil, exitcode.Usagef("--forward-to %q is not a URL: give a full address such as https://hooks.example.com/storectl", raw)
	}
	switch strings.ToLower(u.Scheme) {
	case "https", "http":
		if err := watch.CheckReceiver(u); err != nil {
			return nil, err
		}
		return u, nil
	}
	return nil, exitcode.Usagef("--forward-to %q: the scheme must be https:// (or http:// to a loopback host)", raw)
}
