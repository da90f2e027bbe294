package httpx

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// retryAfterCeiling keeps absurd header values from overflowing a Duration;
// callers apply their own, much lower, limit on how long they will wait.
const retryAfterCeiling = 365 * 24 * time.Hour

// ParseRetryAfter reads a Retry-After value, either delay-seconds ("12") or
// an HTTP date, as a wait from now. A date in the past gives 0. ok is false
// when the value is absent or unreadable.
func ParseRetryAfter(v string, now time.Time) (wait time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if v[0] >= '0' && v[0] <= '9' {
		secs, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			if ne, isNum := err.(*strconv.NumError); isNum && ne.Err == strconv.ErrRange {
				return retryAfterCeiling, true
			}
			return 0, false
		}
		if secs > uint64(retryAfterCeiling/time.Second) {
			return retryAfterCeiling, true
		}
		return time.Duration(secs) * time.Second, true
	}
	at, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	wait = at.Sub(now)
	switch {
	case wait < 0:
		return 0, true
	case wait > retryAfterCeiling:
		return retryAfterCeiling, true
	}
	return wait, true
}
