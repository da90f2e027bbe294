package sandbox

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer records the log; the mutex lets the race detector check
// that the server writes each line with a single call.
type lockedBuffer struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	writes int
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.writes++
	return b.buf.Write(p)
}

func TestLog(t *testing.T) {
	var log lockedBuffer
	srv := New(Options{Log: &log, Now: func() time.Time { return testNow }})
	shop(t, srv, http.MethodGet, "/shop-api/back-in-stock/list?page=2&x=%20y", "")
	shop(t, srv, http.MethodDelete, "/shop-api/coming-soon/delete", "{\n  \"ids\": [1, 2]\n}")
	shop(t, srv, http.MethodPost, "/shop-api/coming-soon/create", "name=x\n")
	call(t, srv, http.MethodGet, "/sfs/v1/settings", "", "")
	shop(t, srv, http.MethodGet, "/nowhere/%0Aevil", "")
	want := "GET /shop-api/back-in-stock/list?page=2&x=%20y 200\n" +
		"DELETE /shop-api/coming-soon/delete 200 {\"ids\":[1,2]}\n" +
		"POST /shop-api/coming-soon/create 422 \"name=x\\n\"\n" +
		"GET /sfs/v1/settings 401\n" +
		"GET /nowhere/%0Aevil 404\n"
	if got := log.buf.String(); got != want {
		t.Errorf("log:\n%s\nwant:\n%s", got, want)
	}
	if log.writes != 5 {
		t.Errorf("%d writes for 5 requests", log.writes)
	}
	if strings.Contains(log.buf.String(), ShopToken) {
		t.Error("the log holds the token")
	}
	log.buf.Reset()
	req := httptest.NewRequest(http.MethodGet, "/shop-api/pre-order/list", nil)
	req.URL.RawQuery = "keyword=a\nb\x1b]0;x\x07"
	srv.ServeHTTP(httptest.NewRecorder(), req)
	if got := log.buf.String(); got != "GET /shop-api/pre-order/list?keyword=a%0Ab%1B]0;x%07 401\n" {
		t.Errorf("control bytes in the query: %q", got)
	}
}

func TestLogConcurrent(t *testing.T) {
	var log lockedBuffer
	srv := New(Options{Log: &log})
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() { shop(t, srv, http.MethodGet, "/shop-api/coming-soon/get/1", "") })
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(log.buf.String(), "\n"), "\n")
	if len(lines) != 20 {
		t.Fatalf("%d lines, want 20", len(lines))
	}
	for _, line := range lines {
		if line != "GET /shop-api/coming-soon/get/1 200" {
			t.Errorf("line %q", line)
		}
	}
}
