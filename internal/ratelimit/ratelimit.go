// Package ratelimit is the request budget "N requests per window" that
// storectl keeps with the shop API (the rate_limit setting) and that the
// sandbox enforces (--throttle): the value, its N/DURATION form, and the
// least time a number of requests takes under it.
package ratelimit

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
)

// Limit is at most N requests in any window of length Per. N == 0 turns
// the limit off.
type Limit struct {
	N   int
	Per time.Duration
}

// Bounds that keep a typo from producing a limit that is useless (a budget
// per nanosecond) or a state file that grows without bound.
const (
	maxN   = 100000
	minPer = time.Millisecond
	maxPer = 24 * time.Hour
)

// Off reports whether the limit is disabled.
func (l Limit) Off() bool { return l.N <= 0 }

// MinDuration is the least time n requests take: N at once, then N more
// after each window.
func (l Limit) MinDuration(n int) time.Duration {
	if n <= 0 || l.Off() {
		return 0
	}
	return time.Duration((n-1)/l.N) * l.Per
}

// Parse reads "N/DURATION" ("30/1m", "20/2s", "100/1h"); "0" and "off"
// turn the limit off. A duration without a number ("30/m") means one unit.
func Parse(s string) (Limit, error) {
	s = strings.TrimSpace(s)
	if s == "0" || strings.EqualFold(s, "off") {
		return Limit{}, nil
	}
	count, per, ok := strings.Cut(s, "/")
	if !ok {
		return Limit{}, parseError(s, "it has no \"/\"")
	}
	n, err := strconv.Atoi(strings.TrimSpace(count))
	if err != nil {
		return Limit{}, parseError(s, fmt.Sprintf("%q is not a whole number of requests", count))
	}
	if n <= 0 || n > maxN {
		return Limit{}, parseError(s, fmt.Sprintf("the number of requests must be between 1 and %d (use 0 or off to turn pacing off)", maxN))
	}
	per = strings.TrimSpace(per)
	if per != "" && (per[0] < '0' || per[0] > '9') && per[0] != '.' {
		per = "1" + per
	}
	d, err := time.ParseDuration(per)
	if err != nil {
		return Limit{}, parseError(s, fmt.Sprintf("%q is not a duration such as 1m, 2s or 1h", per))
	}
	if d < minPer || d > maxPer {
		return Limit{}, parseError(s, fmt.Sprintf("the window must be between %s and %s", minPer, maxPer))
	}
	return Limit{N: n, Per: d}, nil
}

func parseError(s, why string) error {
	return exitcode.Usagef("invalid rate limit %q: %s; use the form N/DURATION, for example 30/1m (30 requests per minute), or 0 to turn pacing off", s, why)
}
