package api

import (
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/exitcode"
)

func TestRoutes(t *testing.T) {
	for _, tt := range []struct {
		arg   string
		api   credentials.Kind
		path  string
		query string
	}{
		{"/shop-api/back-in-stock/list", credentials.Shop, "/shop-api/back-in-stock/list", ""},
		{"shop-api/back-in-stock/list?page=2", credentials.Shop, "/shop-api/back-in-stock/list", "page=2"},
		{"/back-in-stock/form", credentials.Shop, "/back-in-stock/form", ""},
		{"/shop-api/coming-soon/get/a%2Fb", credentials.Shop, "/shop-api/coming-soon/get/a%2Fb", ""},
		{"/sfs/v1/filter?tags[]=a&tags[]=b", credentials.Catalog, "/filter", "tags%5B%5D=a&tags%5B%5D=b"},
		{"/sfs/v1", credentials.Catalog, "", ""},
	} {
		r, err := routeOf(tt.arg)
		if err != nil {
			t.Errorf("%s: %v", tt.arg, err)
			continue
		}
		if r.api != tt.api || r.path != tt.path || r.query.Encode() != tt.query {
			t.Errorf("%s = %s %s ?%s; want %s %s ?%s", tt.arg, r.api, r.path, r.query.Encode(), tt.api, tt.path, tt.query)
		}
	}
}

func TestRoutesRefused(t *testing.T) {
	for _, tt := range []struct{ arg, want string }{
		{"https://evil.example/shop-api/back-in-stock/list", "is a URL: storectl api takes a path"},
		{"//evil.example/shop-api/x", "is a URL"},
		{"/api/v1/x", `no API serves "/api/v1/x"`},
		{"/shop-apix/list", "no API serves"},
		{"/sfs/v2/filter", "no API serves"},
		{"/back-in-stock/list", "no API serves"},
		{"/shop-api/../sfs/v1/filter", ". and .. segments are not allowed"},
		{"/shop-api/%2e%2e/x", ". and .. segments are not allowed"},
		{"/shop-api/x#frag", "a #fragment is never sent"},
		{"/shop-api/x?a=%zz", "the query string is malformed"},
		{"/shop-api/\x1b[2J", "is not a valid path"},
	} {
		_, err := routeOf(tt.arg)
		if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: err = %v, want a usage error containing %q", tt.arg, err, tt.want)
		}
	}
	_, err := routeOf("/nowhere")
	if hint := exitcode.HintOf(err); !strings.Contains(hint, "/shop-api/") || !strings.Contains(hint, "/sfs/v1/") {
		t.Errorf("an unknown prefix's hint = %q, want the prefixes that exist", hint)
	}
}

func TestHeaders(t *testing.T) {
	h, err := parseHeaders([]string{"accept-language: fr", "X-Tag:a", "x-tag:  b ", "X-Empty:"})
	if err != nil {
		t.Fatal(err)
	}
	if h.Get("Accept-Language") != "fr" || strings.Join(h.Values("X-Tag"), ",") != "a,b" || len(h.Values("X-Empty")) != 1 {
		t.Errorf("headers = %v", h)
	}
	for _, tt := range []struct{ arg, want string }{
		{"Authorization: Bearer x", "Authorization is set by storectl"},
		{"authorization: x", "Authorization is set by storectl"},
		{"Host: evil.example", "Host is set by storectl"},
		{"Content-Length: 3", "Content-Length is set by storectl"},
		{"NoColon", "a header is 'Name: value'"},
		{": x", "a header is 'Name: value'"},
		{"Bad Name: x", "a header is 'Name: value'"},
		{"X-A: a\r\nX-B: b", "one line without control characters"},
	} {
		_, err := parseHeaders([]string{tt.arg})
		if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("-H %q: err = %v, want a usage error containing %q", tt.arg, err, tt.want)
		}
	}
}

func TestUnknownPathsNameTheNearestKnown(t *testing.T) {
	for path, want := range map[string][]string{
		"/shop-api/coming-soon/lists": {"GET /shop-api/coming-soon/list"},
		"/shop-api/nope":              {"GET /shop-api/pre-order/list"},
		"/sfs/v1/filters":             {"GET /sfs/v1/filter"},
		"/shop-api/preorder/list":     {"GET /shop-api/pre-order/list"},
	} {
		got := nearest(path, 3)
		if got[0] != want[0] || strings.Contains(path, "shop-api") && strings.Contains(strings.Join(got, " "), "/sfs/v1") {
			t.Errorf("%s: %q", path, got)
		}
	}
	for path, want := range map[string]bool{
		"/shop-api/coming-soon/get/12": true, "/shop-api/coming-soon/get": false, "/sfs/v1/search": true,
		"/back-in-stock/form": true, "/shop-api/nope": false, "/shop-api/coming-soon/list/": true,
	} {
		if known(path) != want {
			t.Errorf("known(%s) = %v", path, !want)
		}
	}
}
