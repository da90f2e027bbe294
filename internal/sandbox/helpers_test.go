package sandbox

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/sandbox/catalog"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// testNow is the fixed clock of the contract tests.
var testNow = time.Date(2026, time.November, 21, 10, 0, 0, 0, time.UTC)

// fakeClock is a clock the throttle tests move by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newTestServer is a server over a fresh demo state with the fixed clock.
func newTestServer(t *testing.T) *Server {
	t.Helper()
	return New(Options{Now: func() time.Time { return testNow }})
}

type response struct {
	status int
	header http.Header
	body   string
}

// call sends one request through h with the token (none when "").
func call(t *testing.T, h http.Handler, method, target, token, body string) response {
	t.Helper()
	var reader io.Reader
	if body != "" {
		reader = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, reader)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return response{status: rec.Code, header: rec.Header(), body: rec.Body.String()}
}

// shop calls a shop API endpoint with the demo shop token.
func shop(t *testing.T, h http.Handler, method, target, body string) response {
	t.Helper()
	return call(t, h, method, target, ShopToken, body)
}

// expect checks the status and the exact body.
func expect(t *testing.T, got response, status int, body string) {
	t.Helper()
	if got.status != status || got.body != body {
		t.Errorf("got HTTP %d %s\nwant HTTP %d %s", got.status, got.body, status, body)
	}
}

// golden compares the body, indented for review, with testdata/golden/NAME.json.
// Indenting keeps key order and every value's JSON form, so the comparison
// is as strict as on the raw bytes.
func golden(t *testing.T, name string, got response, status int) {
	t.Helper()
	if got.status != status {
		t.Errorf("%s: HTTP %d, want %d; body %s", name, got.status, status, got.body)
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, []byte(got.body), "", "  "); err != nil {
		t.Fatalf("%s: body is not JSON: %v\n%s", name, err, got.body)
	}
	indented.WriteByte('\n')
	path := filepath.Join("testdata", "golden", name+".json")
	if *update {
		if err := os.WriteFile(path, indented.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v (run go test -update to create it)", name, err)
	}
	if !bytes.Equal(indented.Bytes(), want) {
		t.Errorf("%s: body differs from %s (go test -update rewrites it after review)\ngot:\n%s", name, path, indented.String())
	}
}

// decode parses a response body for assertions on parts of it.
func decode(t *testing.T, got response) map[string]any {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(got.body))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, got.body)
	}
	return m
}

// items returns the data array of a list response.
func items(t *testing.T, got response) []map[string]any {
	t.Helper()
	raw, ok := decode(t, got)["data"].([]any)
	if !ok {
		t.Fatalf("data is not an array: %s", got.body)
	}
	out := make([]map[string]any, len(raw))
	for i, item := range raw {
		out[i] = item.(map[string]any)
	}
	return out
}

// paginationOf returns the pagination object of a list response, compact.
func paginationOf(t *testing.T, got response) string {
	t.Helper()
	var body struct {
		Pagination json.RawMessage `json:"pagination"`
	}
	if err := json.Unmarshal([]byte(got.body), &body); err != nil {
		t.Fatal(err)
	}
	return string(body.Pagination)
}

// demoProduct returns the nth product of a type, preferring products with
// several variants so that offers and rules can list a few of them; it does
// not depend on other details of the catalog.
func demoProduct(cat *catalog.Catalog, productType string, nth int) catalog.Product {
	for _, minVariants := range []int{4, 2, 1} {
		var found []catalog.Product
		for _, p := range cat.Products() {
			if p.ProductType == productType && len(p.Variants) >= minVariants {
				found = append(found, p)
			}
		}
		if len(found) > 0 {
			return found[min(nth, len(found)-1)]
		}
	}
	return cat.Products()[0]
}

// demoCollection returns the collection with the handle, or the first one.
func demoCollection(cat *catalog.Catalog, handle string) catalog.Collection {
	cols := cat.Collections()
	if i := slices.IndexFunc(cols, func(c catalog.Collection) bool { return c.Handle == handle }); i >= 0 {
		return cols[i]
	}
	return cols[0]
}

// at parses a demo time written as YYYY-MM-DD HH:MM:SS in UTC.
func at(s string) *time.Time {
	t, err := time.ParseInLocation(time.DateTime, s, time.UTC)
	if err != nil {
		panic("sandbox: bad demo time " + s) // static data: a typo is a bug
	}
	return &t
}

func ptr[T any](v T) *T { return &v }
