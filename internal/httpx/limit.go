package httpx

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
)

// Limit is a client-side request budget: at most N requests in any window of
// length Per. N == 0 turns pacing off.
type Limit struct {
	N   int
	Per time.Duration
}

// Bounds that keep a typo from producing a limit that is useless (a budget
// per nanosecond) or a state file that grows without bound.
const (
	maxLimitN   = 100000
	minLimitPer = time.Millisecond
	maxLimitPer = 24 * time.Hour
)

// Off reports whether pacing is disabled.
func (l Limit) Off() bool { return l.N <= 0 }

// String gives the form ParseLimit reads back: "30/1m0s", or "off".
func (l Limit) String() string {
	if l.Off() {
		return "off"
	}
	return fmt.Sprintf("%d/%s", l.N, l.Per)
}

// ParseLimit reads "N/DURATION" ("30/1m", "20/2s", "100/1h"); "0" and "off"
// turn pacing off. A duration without a number ("30/m") means one unit.
func ParseLimit(s string) (Limit, error) {
	s = strings.TrimSpace(s)
	if s == "0" || strings.EqualFold(s, "off") {
		return Limit{}, nil
	}
	count, per, ok := strings.Cut(s, "/")
	if !ok {
		return Limit{}, limitError(s, "it has no \"/\"")
	}
	n, err := strconv.Atoi(strings.TrimSpace(count))
	if err != nil {
		return Limit{}, limitError(s, fmt.Sprintf("%q is not a whole number of requests", count))
	}
	if n <= 0 || n > maxLimitN {
		return Limit{}, limitError(s, fmt.Sprintf("the number of requests must be between 1 and %d (use 0 or off to turn pacing off)", maxLimitN))
	}
	per = strings.TrimSpace(per)
	if per != "" && (per[0] < '0' || per[0] > '9') && per[0] != '.' {
		per = "1" + per
	}
	d, err := time.ParseDuration(per)
	if err != nil {
		return Limit{}, limitError(s, fmt.Sprintf("%q is not a duration such as 1m, 2s or 1h", per))
	}
	if d < minLimitPer || d > maxLimitPer {
		return Limit{}, limitError(s, fmt.Sprintf("the window must be between %s and %s", minLimitPer, maxLimitPer))
	}
	return Limit{N: n, Per: d}, nil
}

func limitError(s, why string) error {
	return exitcode.UsageError(fmt.Sprintf("invalid rate limit %q: %s; use the form N/DURATION, for example 30/1m (30 requests per minute), or 0 to turn pacing off", s, why))
}
