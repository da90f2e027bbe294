package sandbox

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/storectl/storectl/internal/ratelimit"
)

// throttle counts requests per key in fixed windows, the way Laravel's
// throttle middleware does: a window opens with the first request after the
// previous window ended and allows N requests.
type throttle struct {
	limit ratelimit.Limit
	now   func() time.Time

	mu      sync.Mutex
	windows map[string]*window
}

type window struct {
	end   time.Time
	count int
}

// maxWindows bounds the memory a long-running server spends on keys; expired
// windows are dropped when it is reached.
const maxWindows = 1024

func newThrottle(limit ratelimit.Limit, now func() time.Time) *throttle {
	return &throttle{limit: limit, now: now, windows: make(map[string]*window)}
}

// allow counts one request for key, sets the X-RateLimit headers on w and,
// when the allowance is spent, answers 429 and returns false.
func (t *throttle) allow(w http.ResponseWriter, key string) bool {
	if t.limit.Off() || t.limit.Per <= 0 {
		return true
	}
	now := t.now()
	t.mu.Lock()
	win := t.windows[key]
	if win == nil || !now.Before(win.end) {
		if len(t.windows) >= maxWindows {
			t.dropExpired(now)
		}
		win = &window{end: now.Add(t.limit.Per)}
		t.windows[key] = win
	}
	win.count++
	count, end := win.count, win.end
	t.mu.Unlock()

	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(t.limit.N))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(0, t.limit.N-count)))
	if count <= t.limit.N {
		return true
	}
	h.Set("Retry-After", strconv.Itoa(retryAfterSeconds(end.Sub(now))))
	writeFailure(w, http.StatusTooManyRequests, "Too Many Attempts.")
	return false
}

// retryAfterSeconds rounds the wait up to whole seconds, at least one, so a
// client that waits as told always lands in the next window.
func retryAfterSeconds(wait time.Duration) int {
	secs := int((wait + time.Second - 1) / time.Second)
	return max(1, secs)
}

func (t *throttle) dropExpired(now time.Time) {
	for key, win := range t.windows {
		if !now.Before(win.end) {
			delete(t.windows, key)
		}
	}
}
