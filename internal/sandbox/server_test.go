package sandbox

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// shopEndpoints lists one request per shop API route.
var shopEndpoints = []struct{ method, path string }{
	{http.MethodGet, "/shop-api/back-in-stock/form"},
	{http.MethodGet, "/back-in-stock/form"},
	{http.MethodPost, "/shop-api/back-in-stock/create"},
	{http.MethodGet, "/shop-api/back-in-stock/list"},
	{http.MethodGet, "/shop-api/back-in-stock/get/10001"},
	{http.MethodGet, "/shop-api/pre-order/list"},
	{http.MethodGet, "/shop-api/pre-order/get/3101"},
	{http.MethodGet, "/shop-api/pre-order/products/list"},
	{http.MethodPost, "/shop-api/coming-soon/create"},
	{http.MethodGet, "/shop-api/coming-soon/list"},
	{http.MethodGet, "/shop-api/coming-soon/get/1"},
	{http.MethodDelete, "/shop-api/coming-soon/delete"},
}

func TestShopAuth(t *testing.T) {
	srv := newTestServer(t)
	for _, ep := range shopEndpoints {
		for _, token := range []string{"", "wrong", CatalogToken, strings.ToUpper(ShopToken)} {
			got := call(t, srv, ep.method, ep.path, token, `{}`)
			expect(t, got, http.StatusUnauthorized, `{"success":false,"message":"Unauthenticated."}`)
		}
		// The scheme is case-insensitive and spaces around the token do
		// not matter.
		req := httptest.NewRequest(ep.method, ep.path, strings.NewReader(`{}`))
		req.Header.Set("Authorization", "bearer  "+ShopToken+" ")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code == http.StatusUnauthorized {
			t.Errorf("%s %s with the shop token: 401", ep.method, ep.path)
		}
	}
}

func TestRouting(t *testing.T) {
	srv := newTestServer(t)
	notFound := `{"success":false,"message":"Not found"}`
	for _, path := range []string{"/", "/shop-api", "/shop-api/back-in-stock/get/", "/shop-api/back-in-stock/get/1/x",
		"/shop-api/back-in-stock/list/", "/sfs/v1", "/sfs/v2/filter", "/SHOP-API/back-in-stock/form"} {
		expect(t, shop(t, srv, http.MethodGet, path, ""), http.StatusNotFound, notFound)
	}
	tests := []struct{ method, path, allow string }{
		{http.MethodPost, "/shop-api/back-in-stock/list", "GET"},
		{http.MethodGet, "/shop-api/back-in-stock/create", "POST"},
		{http.MethodPost, "/shop-api/coming-soon/delete", "DELETE"},
		{http.MethodDelete, "/shop-api/coming-soon/get/1", "GET"},
		{http.MethodPost, "/sfs/v1/filter", "GET"},
	}
	for _, tt := range tests {
		got := shop(t, srv, tt.method, tt.path, "")
		expect(t, got, http.StatusMethodNotAllowed, `{"success":false,"message":"The `+tt.method+
			` method is not supported for this route. Supported methods: `+tt.allow+`."}`)
		if got.header.Get("Allow") != tt.allow {
			t.Errorf("%s %s: Allow %q", tt.method, tt.path, got.header.Get("Allow"))
		}
	}
}

func TestResponseHeaders(t *testing.T) {
	got := shop(t, newTestServer(t), http.MethodGet, "/shop-api/pre-order/list", "")
	if got.header.Get("Content-Type") != "application/json" || got.header.Get("Content-Length") == "" {
		t.Errorf("headers %v", got.header)
	}
}

func TestBodyTooLarge(t *testing.T) {
	body := `{"name":"` + strings.Repeat("x", maxBody) + `"}`
	expect(t, shop(t, newTestServer(t), http.MethodPost, "/shop-api/coming-soon/create", body),
		http.StatusRequestEntityTooLarge, `{"success":false,"message":"The request body is larger than 1 MiB."}`)
}
