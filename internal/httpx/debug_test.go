package httpx

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is a trace sink safe for concurrent writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestDebugTraceRedactsToken(t *testing.T) {
	const token = "sk_live/ab+cd=ef\"gh"
	var trace lockedBuffer
	echo := func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-RateLimit-Limit", "30")
		w.Header().Set("X-RateLimit-Remaining", "29")
		w.Header().Set("X-Echo-Token", token)
		_, _ = w.Write([]byte(`{"success":true,"echo":` + string(body) + `,"auth":"` + strings.ReplaceAll(r.Header.Get("Authorization"), `"`, `\"`) + `"}`))
	}
	c, _, _ := newTestClient(t, Config{Token: token, Debug: &trace}, reply(429, `{}`, "Retry-After", "2"), echo)
	reqBody := []byte(`{"token":"sk_live/ab+cd=ef\"gh","note":"` + url.QueryEscape(token) + `"}`)
	_, err := c.Do(context.Background(), Request{
		Method: http.MethodPost,
		Path:   "/shop-api/x/" + url.PathEscape(token),
		Query:  url.Values{"t": {token}},
		Body:   reqBody,
	})
	if err != nil {
		t.Fatal(err)
	}
	out := trace.String()
	for _, secret := range []string{token, url.QueryEscape(token), url.PathEscape(token), `sk_live/ab+cd=ef\"gh`, "ab+cd"} {
		if strings.Contains(out, secret) {
			t.Errorf("trace contains the token as %q:\n%s", secret, out)
		}
	}
	for _, want := range []string{
		"> POST http://", "Authorization: Bearer [REDACTED]", "< 429 Too Many Requests", "< Retry-After: 2",
		"* rate limited by the server: retrying in 2s", "(attempt 2)", "< 200 OK", "< X-RateLimit-Limit: 30",
		"< X-RateLimit-Remaining: 29", `"note":"[REDACTED]"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("trace lacks %q:\n%s", want, out)
		}
	}
}

func TestDebugTraceTruncatesLongBodies(t *testing.T) {
	var trace lockedBuffer
	long := `{"data":"` + strings.Repeat("é", 5000) + `"}`
	c, _, _ := newTestClient(t, Config{Debug: &trace}, reply(200, long))
	if _, err := c.Do(context.Background(), Request{Path: "/x"}); err != nil {
		t.Fatal(err)
	}
	out := trace.String()
	if len(out) > maxTraceBody+1000 || !strings.Contains(out, "more bytes)") {
		t.Errorf("long body not truncated (%d bytes of trace)", len(out))
	}
}

func TestNetworkErrorRedactsToken(t *testing.T) {
	const token = "tok-secret-value"
	c, err := New(Config{BaseURL: "http://" + closedPort(t), Token: token, MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Do(context.Background(), Request{Path: "/x", Query: url.Values{"k": {token}}})
	if err == nil || strings.Contains(err.Error(), token) || !strings.Contains(err.Error(), "[REDACTED]") {
		t.Fatalf("err = %v, want the token redacted", err)
	}
}

func TestTraceSanitisesControlCharacters(t *testing.T) {
	if got := debugText("a\x1b[2Jb\nc\u202ed"); got != "a.[2Jb\nc.d" {
		t.Errorf("debugText = %q", got)
	}
}

func TestErrorsRedactEchoedToken(t *testing.T) {
	const token = "tok-echoed-123"
	for _, status := range []int{401, 422, 200} {
		body := `{"success":false,"message":"token tok-echoed-123 is bad","errors":{"t":["tok-echoed-123"]}}`
		c, _, _ := newTestClient(t, Config{Token: token}, reply(status, body))
		_, err := c.Do(context.Background(), Request{Method: http.MethodPost, Path: "/x"})
		if err == nil || strings.Contains(err.Error(), token) {
			t.Errorf("HTTP %d: err = %v, want the token redacted", status, err)
		}
	}
}
