package sandbox

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestTransport(t *testing.T) {
	client := &http.Client{Transport: Transport(newTestServer(t))}
	req, _ := http.NewRequest(http.MethodPost, "http://sandbox.invalid/shop-api/coming-soon/delete", strings.NewReader(`{"ids":[1]}`))
	req.Method = http.MethodDelete
	req.Header.Set("Authorization", "Bearer "+ShopToken)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	want := `{"success":true,"message":"Coming soon products deleted successfully"}`
	if resp.StatusCode != 200 || resp.Status != "200 OK" || string(body) != want {
		t.Errorf("%s %s", resp.Status, body)
	}
	if resp.Request != req || resp.ContentLength != int64(len(want)) || resp.Header.Get("Content-Type") != "application/json" || resp.ProtoMajor != 1 {
		t.Errorf("response fields: request %p want %p, length %d, header %v", resp.Request, req, resp.ContentLength, resp.Header)
	}
}

func TestTransportCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://sandbox.invalid/shop-api/pre-order/list", nil)
	if _, err := Transport(newTestServer(t)).RoundTrip(req); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestTransportCancelledWhileServing(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://sandbox.invalid/", nil)
	start := time.Now()
	_, err := (&http.Client{Transport: Transport(slow)}).Do(req)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want a deadline error", err)
	}
	if elapsed := time.Since(start); elapsed > 2*time.Second {
		t.Errorf("returned after %v", elapsed)
	}
}

func TestTransportPanic(t *testing.T) {
	boom := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })
	req, _ := http.NewRequest(http.MethodGet, "http://sandbox.invalid/x", nil)
	if _, err := Transport(boom).RoundTrip(req); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("err = %v", err)
	}
}
