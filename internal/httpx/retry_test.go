package httpx

import (
	"context"
	"errors"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
)

func TestThrottledRetryAfterSeconds(t *testing.T) {
	var status statusLog
	c, s, fc := newTestClient(t, Config{Status: status.add},
		reply(429, `{"message":"Too Many Attempts."}`, "Retry-After", "12"),
		reply(200, `{"success":true}`))
	if _, err := c.Do(context.Background(), Request{Path: "/x"}); err != nil {
		t.Fatal(err)
	}
	if got := fc.waits(); !slices.Equal(got, []time.Duration{12 * time.Second}) || s.count.Load() != 2 {
		t.Errorf("waits %v after %d requests, want [12s] and 2", got, s.count.Load())
	}
	if msgs := status.all(); len(msgs) != 1 || !strings.HasPrefix(msgs[0], "rate limited by the server: retrying in 12s") {
		t.Errorf("status = %q", msgs)
	}
}

func TestThrottledRetryAfterDate(t *testing.T) {
	fcNow := newFakeClock().now()
	date := fcNow.Add(5 * time.Second).Format(http.TimeFormat)
	c, _, fc := newTestClient(t, Config{}, reply(429, `{}`, "Retry-After", date), reply(200, `{}`))
	if _, err := c.Do(context.Background(), Request{Path: "/x"}); err != nil {
		t.Fatal(err)
	}
	if got := fc.waits(); !slices.Equal(got, []time.Duration{5 * time.Second}) {
		t.Errorf("waits = %v, want [5s]", got)
	}
}

func TestThrottledWithoutRetryAfterBacksOff(t *testing.T) {
	c, _, fc := newTestClient(t, Config{}, reply(429, `{}`), reply(429, `{}`, "Retry-After", "soon"), reply(429, `{}`), reply(200, `{}`))
	if _, err := c.Do(context.Background(), Request{Path: "/x"}); err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}
	if got := fc.waits(); !slices.Equal(got, want) {
		t.Errorf("waits = %v, want %v", got, want)
	}
}

func TestThrottledRetryAfterZeroStillWaits(t *testing.T) {
	c, _, fc := newTestClient(t, Config{}, reply(429, `{}`, "Retry-After", "0"), reply(200, `{}`))
	if _, err := c.Do(context.Background(), Request{Path: "/x"}); err != nil {
		t.Fatal(err)
	}
	if got := fc.waits(); !slices.Equal(got, []time.Duration{minThrottleWait}) {
		t.Errorf("waits = %v", got)
	}
}

func TestThrottledPostIsRetried(t *testing.T) {
	c, s, _ := newTestClient(t, Config{}, reply(429, `{}`, "Retry-After", "1"), reply(200, `{"success":true}`))
	if _, err := c.Do(context.Background(), Request{Method: http.MethodPost, Path: "/create", Body: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if s.count.Load() != 2 {
		t.Errorf("%d requests, want 2", s.count.Load())
	}
}

func TestThrottledForeverGivesUp(t *testing.T) {
	c, s, _ := newTestClient(t, Config{}, reply(429, `{}`, "Retry-After", "1"))
	_, err := c.Do(context.Background(), Request{Method: http.MethodDelete, Path: "/x"})
	var rl *RateLimitError
	if !errors.As(err, &rl) || !strings.Contains(err.Error(), "kept throttling") || exitcode.Of(err) != exitcode.Failure {
		t.Fatalf("err = %v, want a RateLimitError (exit 1)", err)
	}
	if s.count.Load() != max429Retries+1 {
		t.Errorf("%d requests, want %d", s.count.Load(), max429Retries+1)
	}
}

func TestThrottledTooLongFailsAtOnce(t *testing.T) {
	c, s, fc := newTestClient(t, Config{}, reply(429, `{}`, "Retry-After", "3600"))
	_, err := c.Do(context.Background(), Request{Path: "/x"})
	if err == nil || !strings.Contains(err.Error(), "1h0m0s") || s.count.Load() != 1 || len(fc.waits()) != 0 {
		t.Fatalf("err = %v after %d requests, want an immediate error naming the wait", err, s.count.Load())
	}
}

func TestServerErrorRetriedForGet(t *testing.T) {
	var status statusLog
	c, s, fc := newTestClient(t, Config{Status: status.add}, reply(502, "bad gateway", "Content-Type", "text/plain"), reply(503, `{}`), reply(200, `{"ok":1}`))
	resp, err := c.Do(context.Background(), Request{Path: "/x"})
	if err != nil || string(resp.Body) != `{"ok":1}` {
		t.Fatalf("Do = %v, %v", resp, err)
	}
	if s.count.Load() != 3 {
		t.Errorf("%d requests, want 3", s.count.Load())
	}
	if got := fc.waits(); !slices.Equal(got, []time.Duration{retryBase, 2 * retryBase}) {
		t.Errorf("waits = %v", got)
	}
	if msgs := status.all(); len(msgs) != 2 || !strings.Contains(msgs[0], "HTTP 502") || !strings.Contains(msgs[0], "attempt 2 of 4") {
		t.Errorf("status = %q", msgs)
	}
}

func TestServerErrorGivesUpAfterMaxAttempts(t *testing.T) {
	c, s, _ := newTestClient(t, Config{}, reply(504, "<html>timeout</html>", "Content-Type", "text/html"))
	_, err := c.Do(context.Background(), Request{Path: "/x"})
	var re *ResponseError
	if !errors.As(err, &re) || re.Status != 504 || re.Attempts != 4 || exitcode.Of(err) != exitcode.Failure {
		t.Fatalf("err = %#v", err)
	}
	if !strings.Contains(err.Error(), "after 4 attempts") || !strings.Contains(err.Error(), "<html>timeout</html>") {
		t.Errorf("message = %q", err)
	}
	if s.count.Load() != 4 {
		t.Errorf("%d requests, want 4", s.count.Load())
	}
}

func TestPostNotRetriedAfterServerError(t *testing.T) {
	c, s, _ := newTestClient(t, Config{}, reply(502, `{}`), reply(200, `{}`))
	_, err := c.Do(context.Background(), Request{Method: http.MethodPost, Path: "/create", Body: []byte(`{}`)})
	var re *ResponseError
	if !errors.As(err, &re) || re.Status != 502 || s.count.Load() != 1 {
		t.Fatalf("err = %v after %d requests, want the 502 after 1", err, s.count.Load())
	}
}

func TestIdempotentPostRetriedAfterServerError(t *testing.T) {
	c, s, _ := newTestClient(t, Config{}, reply(503, `{}`), reply(200, `{}`))
	if _, err := c.Do(context.Background(), Request{Method: http.MethodPost, Path: "/filter", Idempotent: true}); err != nil {
		t.Fatal(err)
	}
	if s.count.Load() != 2 {
		t.Errorf("%d requests, want 2", s.count.Load())
	}
}

// resetConnection drops the connection without an answer, as a crashed
// proxy would.
func resetConnection(w http.ResponseWriter, r *http.Request) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err)
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0)
	}
	_ = conn.Close()
}

func TestConnectionResetRetriedOnlyWhenIdempotent(t *testing.T) {
	for _, tt := range []struct {
		method string
		want   int32
	}{{http.MethodPost, 1}, {http.MethodGet, 4}} {
		c, s, _ := newTestClient(t, Config{}, resetConnection)
		_, err := c.Do(context.Background(), Request{Method: tt.method, Path: "/x", Body: []byte(`{}`)})
		var ne *NetworkError
		if !errors.As(err, &ne) || exitcode.Of(err) != exitcode.Failure {
			t.Errorf("%s: err = %v, want a NetworkError", tt.method, err)
		}
		if s.count.Load() != tt.want {
			t.Errorf("%s: %d requests, want %d", tt.method, s.count.Load(), tt.want)
		}
	}
}

func TestConnectionRefusedRetriedEvenForPost(t *testing.T) {
	c, err := New(Config{BaseURL: "http://" + closedPort(t), MaxAttempts: 3})
	if err != nil {
		t.Fatal(err)
	}
	fc := newFakeClock()
	fc.install(c)
	_, err = c.Do(context.Background(), Request{Method: http.MethodPost, Path: "/create", Body: []byte(`{}`)})
	var ne *NetworkError
	if !errors.As(err, &ne) || ne.Attempts != 3 || !strings.Contains(err.Error(), "could not connect") {
		t.Fatalf("err = %v, want a connection NetworkError after 3 attempts", err)
	}
	if len(fc.waits()) != 2 {
		t.Errorf("waits = %v, want 2", fc.waits())
	}
}

func TestTruncatedBodyRetriedForGet(t *testing.T) {
	short := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100")
		_, _ = w.Write([]byte(`{"success":true,`))
	}
	c, s, _ := newTestClient(t, Config{}, short, reply(200, `{"success":true}`))
	if _, err := c.Do(context.Background(), Request{Path: "/x"}); err != nil {
		t.Fatal(err)
	}
	if s.count.Load() != 2 {
		t.Errorf("%d requests, want 2", s.count.Load())
	}
	c, s, _ = newTestClient(t, Config{}, short)
	_, err := c.Do(context.Background(), Request{Method: http.MethodPost, Path: "/x"})
	var re *ResponseError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "cut short") || s.count.Load() != 1 {
		t.Fatalf("err = %v after %d requests, want a cut-short ResponseError after 1", err, s.count.Load())
	}
}

func TestBackoffIsCapped(t *testing.T) {
	identity := func(d time.Duration) time.Duration { return d }
	if got := retryBackoff(100, identity); got != retryCap {
		t.Errorf("retryBackoff(100) = %v", got)
	}
	if got := throttleBackoff(1000); got != throttleCap {
		t.Errorf("throttleBackoff(1000) = %v", got)
	}
	for range 100 {
		if d := fullJitter(time.Second); d < 0 || d > time.Second {
			t.Fatalf("fullJitter(1s) = %v", d)
		}
	}
}
