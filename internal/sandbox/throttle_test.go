package sandbox

import (
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/ratelimit"
)

func TestShopThrottle(t *testing.T) {
	clock := &fakeClock{now: testNow}
	srv := New(Options{Now: clock.Now, ShopThrottle: ratelimit.Limit{N: 3, Per: 200 * time.Millisecond}})
	list := "/shop-api/coming-soon/list"
	for i, remaining := range []string{"2", "1", "0"} {
		got := shop(t, srv, http.MethodGet, list, "")
		if got.status != 200 || got.header.Get("X-RateLimit-Limit") != "3" || got.header.Get("X-RateLimit-Remaining") != remaining {
			t.Fatalf("request %d: HTTP %d %v", i+1, got.status, got.header)
		}
		clock.Advance(10 * time.Millisecond)
	}
	got := shop(t, srv, http.MethodGet, list, "")
	expect(t, got, http.StatusTooManyRequests, `{"success":false,"message":"Too Many Attempts."}`)
	if got.header.Get("Retry-After") != "1" || got.header.Get("X-RateLimit-Remaining") != "0" || got.header.Get("X-RateLimit-Limit") != "3" {
		t.Errorf("429 headers: %v", got.header)
	}

	// Another token has its own window; so has a request without one, and
	// it carries the headers too.
	if got := call(t, srv, http.MethodGet, list, "someone-else", ""); got.status != 401 || got.header.Get("X-RateLimit-Remaining") != "2" {
		t.Errorf("other token: HTTP %d %v", got.status, got.header)
	}

	// The window opened with the first request and lasts 200ms.
	clock.Advance(169 * time.Millisecond)
	if got := shop(t, srv, http.MethodGet, list, ""); got.status != 429 {
		t.Errorf("1ms before the window ends: HTTP %d", got.status)
	}
	clock.Advance(time.Millisecond)
	if got := shop(t, srv, http.MethodGet, list, ""); got.status != 200 || got.header.Get("X-RateLimit-Remaining") != "2" {
		t.Errorf("new window: HTTP %d %v", got.status, got.header)
	}
}

func TestShopThrottleRetryAfter(t *testing.T) {
	clock := &fakeClock{now: testNow}
	srv := New(Options{Now: clock.Now, ShopThrottle: ratelimit.Limit{N: 1, Per: time.Minute}})
	shop(t, srv, http.MethodGet, "/shop-api/back-in-stock/form", "")
	for _, tt := range []struct {
		advance time.Duration
		want    string
	}{{10 * time.Second, "50"}, {49*time.Second + 500*time.Millisecond, "1"}} {
		clock.Advance(tt.advance)
		if got := shop(t, srv, http.MethodGet, "/shop-api/back-in-stock/form", ""); got.header.Get("Retry-After") != tt.want {
			t.Errorf("after %v more: Retry-After %q, want %s", tt.advance, got.header.Get("Retry-After"), tt.want)
		}
	}
}

func TestShopThrottleOff(t *testing.T) {
	got := shop(t, newTestServer(t), http.MethodGet, "/shop-api/back-in-stock/form", "")
	if got.header.Get("X-RateLimit-Limit") != "" {
		t.Errorf("throttle off, yet headers %v", got.header)
	}
}

func TestShopThrottleConcurrent(t *testing.T) {
	srv := New(Options{ShopThrottle: ratelimit.Limit{N: 30, Per: time.Hour}})
	var ok, limited atomic.Int32
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			switch shop(t, srv, http.MethodGet, "/shop-api/back-in-stock/form", "").status {
			case 200:
				ok.Add(1)
			case 429:
				limited.Add(1)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 30 || limited.Load() != 20 {
		t.Errorf("%d allowed and %d limited, want 30 and 20", ok.Load(), limited.Load())
	}
}

func TestRetryAfterSeconds(t *testing.T) {
	for wait, want := range map[time.Duration]int{0: 1, time.Millisecond: 1, time.Second: 1, 1001 * time.Millisecond: 2, 59 * time.Second: 59} {
		if got := retryAfterSeconds(wait); got != want {
			t.Errorf("retryAfterSeconds(%v) = %d, want %d", wait, got, want)
		}
	}
}

func TestThrottleDropsExpiredWindows(t *testing.T) {
	clock := &fakeClock{now: testNow}
	th := newThrottle(ratelimit.Limit{N: 1, Per: time.Second}, clock.Now)
	for i := range maxWindows {
		th.windows[string(rune(i))] = &window{end: testNow}
	}
	clock.Advance(time.Second)
	th.allow(discardWriter{}, "new")
	if len(th.windows) != 1 {
		t.Errorf("%d windows kept, want only the live one", len(th.windows))
	}
}

type discardWriter struct{}

func (discardWriter) Header() http.Header         { return http.Header{} }
func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (discardWriter) WriteHeader(int)             {}

func TestNumberedShopTokensHaveTheirOwnBudget(t *testing.T) {
	srv := New(Options{ShopThrottle: ratelimit.Limit{N: 2, Per: time.Minute}})
	list := "/shop-api/coming-soon/list"
	for _, token := range []string{ShopToken, ShopToken + "_2"} {
		for i := range 3 {
			want := http.StatusOK
			if i == 2 {
				want = http.StatusTooManyRequests
			}
			if got := call(t, srv, http.MethodGet, list, token, ""); got.status != want {
				t.Errorf("%s, request %d: HTTP %d, want %d", token, i+1, got.status, want)
			}
		}
	}
	for token, ok := range map[string]bool{ShopToken: true, ShopToken + "_2": true, ShopToken + "_17": true,
		ShopToken + "_": false, ShopToken + "_x": false, ShopToken + "2": false, "shop_sandbox": false, ShopToken + "_123456789": false} {
		if IsShopToken(token) != ok {
			t.Errorf("IsShopToken(%q) = %v", token, !ok)
		}
	}
}
