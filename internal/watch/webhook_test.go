package watch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
)

func TestWebhookPostsSignedEvents(t *testing.T) {
	var got *http.Request
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, body = r, must(io.ReadAll(r.Body))
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	hook, err := NewWebhook(must(url.Parse(srv.URL+"/hook?k=secretq")), "whsec", "storectl/test", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	d := Delivery{ID: "evt_1", Type: "rule.created", Body: []byte(`{"id":"evt_1"}`)}
	if err := hook.Deliver(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	if got.Method != "POST" || got.URL.RawQuery != "k=secretq" || string(body) != string(d.Body) ||
		got.Header.Get("Content-Type") != "application/json" || got.Header.Get("Storectl-Event-Id") != "evt_1" ||
		got.Header.Get("Storectl-Event-Type") != "rule.created" || got.Header.Get("User-Agent") != "storectl/test" {
		t.Fatalf("request %s %s %v %s", got.Method, got.URL, got.Header, body)
	}
	if err := Verify("whsec", got.Header.Get(SignatureHeader), body, time.Now(), time.Minute); err != nil {
		t.Fatalf("signature: %v", err)
	}
	if s := hook.String(); strings.Contains(s, "secretq") {
		t.Errorf("the receiver is named with its query: %s", s)
	}
}

func TestWebhookAnswers(t *testing.T) {
	for status, want := range map[int]string{500: "HTTP 500", 404: "HTTP 404", 302: "redirect, not followed", 410: "410 Gone"} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if status == 302 {
				w.Header().Set("Location", "https://elsewhere.example/")
			}
			w.WriteHeader(status)
		}))
		hook, _ := NewWebhook(must(url.Parse(srv.URL)), "s", "ua", time.Second)
		err := hook.Deliver(context.Background(), Delivery{ID: "evt", Body: []byte("{}")})
		srv.Close()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%d: %v, want %q", status, err, want)
		}
		if stop := isStop(err); stop != (status == 410) {
			t.Errorf("%d: stop %v", status, stop)
		}
	}
}

func TestWebhookTimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	defer srv.Close()
	hook, _ := NewWebhook(must(url.Parse(srv.URL)), "s", "ua", 100*time.Millisecond)
	if err := hook.Deliver(context.Background(), Delivery{Body: []byte("{}")}); err == nil || !strings.Contains(err.Error(), "no answer within 100ms") {
		t.Fatalf("%v", err)
	}
}

func TestWebhookURLs(t *testing.T) {
	for _, ok := range []string{"https://hooks.example.com/x", "http://127.0.0.1:3000/hook", "http://localhost/x", "http://[::1]:8080/"} {
		if _, err := NewWebhook(must(url.Parse(ok)), "s", "ua", time.Second); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for bad, want := range map[string]string{
		"http://hooks.example.com/x": "refusing plain http",
		"ftp://x/":                   "scheme must be https",
	} {
		_, err := NewWebhook(must(url.Parse(bad)), "s", "ua", time.Second)
		if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", bad, err, want)
		}
	}
	if _, err := NewWebhook(must(url.Parse("https://x.example")), "", "ua", time.Second); exitcode.Of(err) != exitcode.Usage || !errors.Is(err, ErrNoSecret) {
		t.Errorf("no secret: %v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A receiver that cannot be reached: the error is the cause, not
// net/http's text naming the URL again ("Post \"http://…\": dial tcp …"):
// the watch names the receiver once beside it.
func TestWebhookUnreachableSaysTheCause(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := srv.URL
	srv.Close()
	hook, _ := NewWebhook(must(url.Parse(addr+"/hook")), "s", "ua", time.Second)
	err := hook.Deliver(context.Background(), Delivery{ID: "evt", Body: []byte("{}")})
	if err == nil || err.Error() != "connection refused" {
		t.Errorf("an unreachable receiver: %v, want connection refused", err)
	}
}
