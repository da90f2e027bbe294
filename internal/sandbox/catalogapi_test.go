package sandbox

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/ratelimit"
)

func TestCatalogAuth(t *testing.T) {
	srv := newTestServer(t)
	unauth := func(msg string) string { return `{"success":false,"message":"` + msg + `"}` }
	paths := map[string]string{
		"filter":   "/sfs/v1/filter",
		"search":   "/sfs/v1/search?term=jacket",
		"settings": "/sfs/v1/settings",
	}
	tests := []struct {
		token  string
		status map[string]int // per path; 200 when the body is the catalog's
		body   map[string]string
	}{
		{"", map[string]int{"filter": 401, "search": 401, "settings": 401},
			map[string]string{"filter": unauth("Unauthenticated."), "search": unauth("Unauthenticated."), "settings": unauth("Unauthenticated.")}},
		{"not-a-token", map[string]int{"filter": 401, "search": 401, "settings": 401},
			map[string]string{"filter": unauth("Invalid token."), "search": unauth("Invalid token."), "settings": unauth("Invalid token.")}},
		{ShopToken, map[string]int{"filter": 401, "search": 401, "settings": 401},
			map[string]string{"filter": unauth("Invalid token."), "search": unauth("Invalid token."), "settings": unauth("Invalid token.")}},
		{CatalogRevokedToken, map[string]int{"filter": 401, "search": 401, "settings": 401},
			map[string]string{"filter": unauth("This token has been revoked."), "search": unauth("This token has been revoked."), "settings": unauth("This token has been revoked.")}},
		{CatalogExpiredToken, map[string]int{"filter": 401, "search": 401, "settings": 401},
			map[string]string{"filter": unauth("This token has expired."), "search": unauth("This token has expired."), "settings": unauth("This token has expired.")}},
		{CatalogReadToken, map[string]int{"filter": 200, "search": 200, "settings": 403},
			map[string]string{"settings": unauth("This action requires the read:config scope.")}},
		{CatalogConfigToken, map[string]int{"filter": 403, "search": 403, "settings": 200},
			map[string]string{"filter": unauth("This action requires the read:catalog scope."), "search": unauth("This action requires the read:catalog scope.")}},
		{CatalogToken, map[string]int{"filter": 200, "search": 200, "settings": 200}, nil},
	}
	for _, tt := range tests {
		for name, path := range paths {
			got := call(t, srv, http.MethodGet, path, tt.token, "")
			if want, ok := tt.body[name]; ok {
				expect(t, got, tt.status[name], want)
				continue
			}
			if got.status != tt.status[name] || !strings.HasPrefix(got.body, "{") {
				t.Errorf("token %q %s: HTTP %d %.200s", tt.token, name, got.status, got.body)
			}
		}
	}
	// A catalog token is not a shop token.
	expect(t, call(t, srv, http.MethodGet, "/shop-api/back-in-stock/list", CatalogToken, ""),
		http.StatusUnauthorized, `{"success":false,"message":"Unauthenticated."}`)
}

func TestCatalogBodiesComeFromCatalog(t *testing.T) {
	srv := newTestServer(t)
	cat := demoCatalog()
	for path, body := range map[string]func() (int, []byte){
		"/sfs/v1/settings": cat.Settings,
	} {
		status, want := body()
		expect(t, call(t, srv, http.MethodGet, path, CatalogToken, ""), status, string(want))
	}
	q := "/sfs/v1/filter?collection=400123456004&sort_by=price-ascending&limit=3"
	req, _ := http.NewRequest(http.MethodGet, q, nil)
	status, want := cat.Filter(req.URL.Query())
	expect(t, call(t, srv, http.MethodGet, q, CatalogToken, ""), status, string(want))
}

func TestCatalogSyncing(t *testing.T) {
	srv := New(Options{SyncRequests: 2})
	syncing := `{"processing":1,"message":"` + syncingMessage + `"}`
	// Rejected requests and settings do not use up the syncing answers.
	call(t, srv, http.MethodGet, "/sfs/v1/filter", CatalogRevokedToken, "")
	if got := call(t, srv, http.MethodGet, "/sfs/v1/settings", CatalogToken, ""); got.status != 200 || strings.Contains(got.body, "processing") {
		t.Errorf("settings while syncing: %d %.100s", got.status, got.body)
	}
	expect(t, call(t, srv, http.MethodGet, "/sfs/v1/filter", CatalogToken, ""), http.StatusOK, syncing)
	expect(t, call(t, srv, http.MethodGet, "/sfs/v1/search?term=x", CatalogToken, ""), http.StatusOK, syncing)
	if got := call(t, srv, http.MethodGet, "/sfs/v1/filter", CatalogToken, ""); strings.Contains(got.body, `"processing"`) {
		t.Errorf("still syncing after 2 requests: %.100s", got.body)
	}
}

func TestCatalogThrottle(t *testing.T) {
	clock := &fakeClock{now: testNow}
	srv := New(Options{Now: clock.Now, CatalogThrottle: ratelimit.Limit{N: 2, Per: 200 * time.Millisecond}})
	// The limit is per store: every token of the store counts.
	for i, token := range []string{CatalogToken, CatalogReadToken} {
		got := call(t, srv, http.MethodGet, "/sfs/v1/filter", token, "")
		if got.status != 200 || got.header.Get("X-RateLimit-Limit") != "2" || got.header.Get("X-RateLimit-Remaining") != []string{"1", "0"}[i] {
			t.Fatalf("request %d: HTTP %d, headers %v", i+1, got.status, got.header)
		}
	}
	got := call(t, srv, http.MethodGet, "/sfs/v1/settings", CatalogConfigToken, "")
	expect(t, got, http.StatusTooManyRequests, `{"success":false,"message":"Too Many Attempts."}`)
	if got.header.Get("Retry-After") != "1" || got.header.Get("X-RateLimit-Remaining") != "0" || got.header.Get("X-RateLimit-Limit") != "2" {
		t.Errorf("429 headers: %v", got.header)
	}
	// Requests the token check rejects are not counted.
	expect(t, call(t, srv, http.MethodGet, "/sfs/v1/filter", "", ""), http.StatusUnauthorized, `{"success":false,"message":"Unauthenticated."}`)
	clock.Advance(200 * time.Millisecond)
	if got := call(t, srv, http.MethodGet, "/sfs/v1/filter", CatalogToken, ""); got.status != 200 || got.header.Get("X-RateLimit-Remaining") != "1" {
		t.Errorf("next window: HTTP %d %v", got.status, got.header)
	}
}
