package api

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/storectl/storectl/internal/api/raw"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/typo"
)

// endpoints are the paths the API contract names, {id} standing for one
// path segment.
var endpoints = []string{
	"GET /shop-api/back-in-stock/form",
	"POST /shop-api/back-in-stock/create",
	"GET /shop-api/back-in-stock/list",
	"GET /shop-api/back-in-stock/get/{id}",
	"GET /shop-api/pre-order/list",
	"GET /shop-api/pre-order/get/{id}",
	"GET /shop-api/pre-order/products/list",
	"POST /shop-api/coming-soon/create",
	"GET /shop-api/coming-soon/list",
	"GET /shop-api/coming-soon/get/{id}",
	"DELETE /shop-api/coming-soon/delete",
	"GET /sfs/v1/filter",
	"GET /sfs/v1/search",
	"GET /sfs/v1/settings",
}

// fullPath is the route's path as PATH writes it (the catalog's with
// /sfs/v1), without its query.
func (r route) fullPath() string {
	if r.api == credentials.Catalog {
		return catalogPrefix + r.path
	}
	return r.path
}

// known reports a path the contract names, whatever the method.
func known(path string) bool {
	if path == "/back-in-stock/form" {
		return true
	}
	return slices.ContainsFunc(endpoints, func(e string) bool { return matches(endpointPath(e), path) })
}

func endpointPath(e string) string {
	_, p, _ := strings.Cut(e, " ")
	return p
}

func matches(pattern, path string) bool {
	want, got := strings.Split(pattern, "/"), strings.Split(strings.TrimRight(path, "/"), "/")
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		if want[i] != got[i] && !(want[i] == "{id}" && got[i] != "") {
			return false
		}
	}
	return true
}

// unknownPath turns the 404 of a path the contract does not name into what
// it is, an unknown path, with the known paths nearest to it, instead of
// blaming the base URL.
func unknownPath(rt route, resp *raw.Response, err error) error {
	if err == nil || resp == nil || resp.StatusCode != 404 || known(rt.fullPath()) {
		return err
	}
	return exitcode.WithHint(exitcode.APIRefused,
		errors.New("the API has no path "+rt.fullPath()+" (HTTP 404)"),
		"the nearest paths it has: "+strings.Join(nearest(rt.fullPath(), 3), ", ")+"; `storectl api --help` lists them all")
}

// nearest are the n endpoints whose paths are closest to path: those of
// the same API first, then by edit distance.
func nearest(path string, n int) []string {
	otherAPI := func(e string) int {
		if strings.HasPrefix(path, catalogPrefix) == strings.HasPrefix(endpointPath(e), catalogPrefix) {
			return 0
		}
		return 1
	}
	ranked := slices.Clone(endpoints)
	slices.SortStableFunc(ranked, func(a, b string) int {
		return cmp.Or(cmp.Compare(otherAPI(a), otherAPI(b)), cmp.Compare(typo.EditDistance(path, endpointPath(a)), typo.EditDistance(path, endpointPath(b))))
	})
	return ranked[:min(n, len(ranked))]
}

// endpointList is the help's list of the contract's paths.
func endpointList() string {
	return fmt.Sprintf("  %s", strings.Join(endpoints, "\n  "))
}
