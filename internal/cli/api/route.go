package api

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/exitcode"
)

// catalogPrefix is how the spec writes catalog paths; the catalog base URL
// already ends with it.
const catalogPrefix = "/sfs/v1"

// route is where a PATH goes: which API (and so which base URL and token),
// the path below that API's base URL, and the query written in PATH.
type route struct {
	api   credentials.Kind
	path  string
	query url.Values
}

const prefixHelp = "PATH starts with /shop-api/ (the shop API; also /back-in-stock/form, as the spec writes it) or /sfs/v1/ (the catalog API)"

// routeOf reads PATH. A URL with a host is refused: the profile's token
// must go to the profile's store and nowhere else.
func routeOf(arg string) (route, error) {
	if strings.Contains(arg, "://") || strings.HasPrefix(arg, "//") {
		return route{}, exitcode.UsageHint(
			fmt.Errorf("%q is a URL: storectl api takes a path, sent to the profile's store with its token, never to another host", arg), prefixHelp)
	}
	if !strings.HasPrefix(arg, "/") {
		arg = "/" + arg
	}
	u, err := url.Parse(arg)
	if err != nil || u.Host != "" || u.Scheme != "" || u.Opaque != "" {
		return route{}, exitcode.UsageHint(fmt.Errorf("%q is not a valid path", arg), prefixHelp)
	}
	if err := checkPathParts(arg, u); err != nil {
		return route{}, err
	}
	query, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return route{}, exitcode.Usagef("path %q: the query string is malformed (%v); pass parameters with -f key=value instead", arg, err)
	}
	// Sent escaped as written, so that an escaped / stays part of its segment.
	path := u.EscapedPath()
	r := route{path: path, query: query}
	switch {
	case under(path, "/shop-api"), path == "/back-in-stock/form":
		r.api = credentials.Shop
	case under(path, catalogPrefix):
		r.api, r.path = credentials.Catalog, strings.TrimPrefix(path, catalogPrefix)
	default:
		return route{}, exitcode.UsageHint(fmt.Errorf("no API serves %q", u.Path), prefixHelp)
	}
	return r, nil
}

// checkPathParts refuses what a server never sees or should not be sent:
// a #fragment, and . or .. segments.
func checkPathParts(arg string, u *url.URL) error {
	if u.Fragment != "" || strings.Contains(arg, "#") {
		return exitcode.Usagef("path %q: a #fragment is never sent to a server; remove it", arg)
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if seg == "." || seg == ".." {
			return exitcode.Usagef("path %q: . and .. segments are not allowed; write the path the API documents", arg)
		}
	}
	return nil
}

// under reports whether path is prefix or below it.
func under(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}
