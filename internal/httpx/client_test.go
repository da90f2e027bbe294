package httpx

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/ratelimit"
)

func TestRequestHeadersAndURL(t *testing.T) {
	var got *http.Request
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Clone(context.Background())
		body, _ = io.ReadAll(r.Body)
		_, _ = io.WriteString(w, `{"success":true,"data":[]}`)
	}))
	defer srv.Close()
	c, err := New(Config{BaseURL: srv.URL + "/sfs/v1/", Token: " tok-123 \n", UserAgent: "storectl/1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(context.Background(), Request{Method: "post", Path: "/filter", Query: url.Values{"tags": {"a b", "c"}}, Body: []byte(`{"x":1}`)})
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || string(resp.Body) != `{"success":true,"data":[]}` {
		t.Errorf("response = %d %s", resp.StatusCode, resp.Body)
	}
	checks := map[string]string{
		"Authorization": "Bearer tok-123",
		"User-Agent":    "storectl/1.2.3",
		"Accept":        "application/json",
		"Content-Type":  "application/json",
	}
	for name, want := range checks {
		if v := got.Header.Get(name); v != want {
			t.Errorf("%s = %q, want %q", name, v, want)
		}
	}
	if got.Method != http.MethodPost || got.URL.Path != "/sfs/v1/filter" || got.URL.RawQuery != "tags=a+b&tags=c" {
		t.Errorf("request = %s %s?%s", got.Method, got.URL.Path, got.URL.RawQuery)
	}
	if string(body) != `{"x":1}` {
		t.Errorf("body = %s", body)
	}
}

func TestNoTokenSendsNoAuthorizationAndGetHasNoContentType(t *testing.T) {
	var got http.Header
	c, _, _ := newTestClient(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		reply(200, `{}`)(w, r)
	})
	if _, err := c.Do(context.Background(), Request{Path: "/x"}); err != nil {
		t.Fatal(err)
	}
	if got.Get("Authorization") != "" || got.Get("Content-Type") != "" {
		t.Errorf("headers = %v", got)
	}
	if got.Get("User-Agent") != "storectl" {
		t.Errorf("default User-Agent = %q", got.Get("User-Agent"))
	}
}

func TestNewChecksBaseURL(t *testing.T) {
	tests := []struct {
		url     string
		wantErr string
	}{
		{"https://shop.example.com", ""},
		{"https://x.example/sfs/v1", ""},
		{"http://127.0.0.1:8787", ""},
		{"http://127.9.9.9", ""},
		{"http://localhost:1/", ""},
		{"HTTP://LOCALHOST", ""},
		{"HTTP://LOCALHOST.", "use https://"}, // resolved through DNS, not the hosts file
		{"http://127.0.0.1.:8787", "use https://"},
		{"http://[::1]:8080", ""},
		{"http://[::ffff:127.0.0.1]:8080", ""},
		{"http://shop.example.com", "use https://"},
		{"http://10.0.0.1", "use https://"},
		{"http://localhost.evil.com", "use https://"},
		{"http://128.0.0.1", "use https://"},
		{"ftp://shop.example.com", "scheme must be https"},
		{"shop.example.com", "full address"},
		{"", "no API base URL"},
		{"https://user:pw@shop.example.com", "user name or password"},
		{"https://shop.example.com/?a=1", "query"},
	}
	for _, tt := range tests {
		_, err := New(Config{BaseURL: tt.url})
		if tt.wantErr == "" {
			if err != nil {
				t.Errorf("New(%q) = %v, want success", tt.url, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("New(%q) = %v, want error containing %q", tt.url, err, tt.wantErr)
			continue
		}
		if code := exitcode.Of(err); code != exitcode.Usage {
			t.Errorf("New(%q) exit code %d, want %d", tt.url, code, exitcode.Usage)
		}
	}
}

func TestNewRejectsBadSettings(t *testing.T) {
	for _, cfg := range []Config{
		{BaseURL: "https://x", Token: "ab cd"},
		{BaseURL: "https://x", Timeout: -time.Second},
		{BaseURL: "https://x", Limit: ratelimit.Limit{N: 3}},
	} {
		if _, err := New(cfg); exitcode.Of(err) != exitcode.Usage {
			t.Errorf("New(%+v) = %v, want a usage error", cfg, err)
		}
	}
}

func TestPerAttemptTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	c, _, _ := newTestClient(t, Config{Timeout: 50 * time.Millisecond, MaxAttempts: 2}, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	_, err := c.Do(context.Background(), Request{Path: "/slow"})
	var ne *NetworkError
	if !errors.As(err, &ne) || !strings.Contains(err.Error(), "no response within 50ms") || ne.Attempts != 2 {
		t.Fatalf("err = %v, want a timeout NetworkError after 2 attempts", err)
	}
	if errors.Is(err, context.Canceled) || exitcode.Of(err) != exitcode.Failure {
		t.Errorf("a timeout must be exit 1, got %d", exitcode.Of(err))
	}
}

func TestCancellationWhileWaitingForServer(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	c, _, _ := newTestClient(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	_, err := c.Do(ctx, Request{Path: "/slow"})
	if !errors.Is(err, context.Canceled) || exitcode.Of(err) != exitcode.Interrupted {
		t.Fatalf("err = %v (exit %d), want context.Canceled", err, exitcode.Of(err))
	}
}

func TestCancellationWhilePacing(t *testing.T) {
	srv := httptest.NewServer(reply(200, `{}`))
	defer srv.Close()
	c, err := New(Config{BaseURL: srv.URL, Token: uniqueToken(t), Limit: ratelimit.Limit{N: 1, Per: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(context.Background(), Request{Path: "/a"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	if _, err := c.Do(ctx, Request{Path: "/b"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestRedirectIsNotFollowed(t *testing.T) {
	c, s, _ := newTestClient(t, Config{}, reply(http.StatusMovedPermanently, "", "Location", "https://elsewhere.example/api"))
	_, err := c.Do(context.Background(), Request{Method: http.MethodPost, Path: "/x", Body: []byte(`{}`)})
	var re *ResponseError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "https://elsewhere.example/api") || s.count.Load() != 1 {
		t.Fatalf("err = %v after %d requests, want a ResponseError naming the new location", err, s.count.Load())
	}
}

func TestHeadNeedsNoBody(t *testing.T) {
	c, _, _ := newTestClient(t, Config{}, reply(200, ""))
	if _, err := c.Do(context.Background(), Request{Method: http.MethodHead, Path: "/x"}); err != nil {
		t.Fatal(err)
	}
}

func TestInvalidPath(t *testing.T) {
	c, s, _ := newTestClient(t, Config{}, reply(200, `{}`))
	if _, err := c.Do(context.Background(), Request{Path: "/x?page=2"}); err == nil {
		t.Error("a query in Path must be refused")
	}
	if s.count.Load() != 0 {
		t.Error("nothing may be sent for an invalid path")
	}
}

// closedPort is a loopback address nobody listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

func TestCallerHeadersNeverReplaceAuthorization(t *testing.T) {
	const token = "tok-own"
	var got http.Header
	var trace strings.Builder
	c, _, _ := newTestClient(t, Config{Token: token, Debug: &trace}, func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		reply(200, `{}`)(w, r)
	})
	header := http.Header{"authorization": {"Bearer stolen"}, "X-Echo": {"Bearer " + token}, "Accept": {"text/plain"}}
	if _, err := c.Do(context.Background(), Request{Path: "/x", Header: header}); err != nil {
		t.Fatal(err)
	}
	if v := got.Values("Authorization"); len(v) != 1 || v[0] != "Bearer "+token {
		t.Errorf("Authorization = %q, want only the client's token", v)
	}
	if got.Get("X-Echo") != "Bearer "+token || got.Get("Accept") != "text/plain" {
		t.Errorf("caller headers not sent as given: %v", got)
	}
	if out := trace.String(); strings.Contains(out, token) || strings.Contains(out, "stolen") || !strings.Contains(out, "> X-Echo: Bearer [REDACTED]") {
		t.Errorf("trace shows a token or misses the caller's header:\n%s", out)
	}
}

func TestExchangeReturnsFailureAnswers(t *testing.T) {
	for _, tt := range []struct {
		status int
		body   string
		code   int
	}{
		{200, `{"success":false,"message":"No"}`, exitcode.APIRefused},
		{422, `{"success":false,"message":"Bad"}`, exitcode.APIRefused},
		{401, `{"message":"Unauthenticated."}`, exitcode.Auth},
		{500, `<html>oops</html>`, exitcode.Failure},
	} {
		c, _, _ := newTestClient(t, Config{MaxAttempts: 1}, reply(tt.status, tt.body, "X-Trace", "t1"))
		resp, err := c.Exchange(context.Background(), Request{Path: "/x"})
		if exitcode.Of(err) != tt.code {
			t.Errorf("%d: exit code %d, want %d (%v)", tt.status, exitcode.Of(err), tt.code, err)
		}
		if resp == nil || resp.StatusCode != tt.status || string(resp.Body) != tt.body || resp.Header.Get("X-Trace") != "t1" || resp.Proto != "HTTP/1.1" {
			t.Errorf("%d: response = %+v", tt.status, resp)
		}
		if resp, err := c.Do(context.Background(), Request{Path: "/x"}); resp != nil || err == nil {
			t.Errorf("%d: Do = %v, %v; want only the error", tt.status, resp, err)
		}
	}
}
