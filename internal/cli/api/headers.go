package api

import (
	"net/http"
	"strings"

	"github.com/storectl/storectl/internal/exitcode"
)

// reservedHeaders are set by storectl: the token, and what the transport
// computes from the request itself.
var reservedHeaders = map[string]string{
	"Authorization":       "storectl sends the profile's token in it; to use another token, set STORECTL_SHOP_TOKEN or STORECTL_CATALOG_TOKEN",
	"Proxy-Authorization": "put proxy credentials in HTTPS_PROXY",
	"Host":                "the host is the profile's store",
	"Content-Length":      "it is computed from the body",
	"Transfer-Encoding":   "it is computed from the body",
	"Connection":          "the transport manages connections",
}

// parseHeaders reads -H 'Name: value' flags. A name repeated sends each
// value.
func parseHeaders(args []string) (http.Header, error) {
	h := http.Header{}
	for _, arg := range args {
		name, value, ok := strings.Cut(arg, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || !validName(name) {
			return nil, exitcode.Usagef("-H %q: a header is 'Name: value', with a name of letters, digits and - such as 'Accept-Language: fr'", arg)
		}
		if strings.ContainsFunc(value, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }) {
			return nil, exitcode.Usagef("-H %q: the value must be one line without control characters", arg)
		}
		canonical := http.CanonicalHeaderKey(name)
		if why, ok := reservedHeaders[canonical]; ok {
			return nil, exitcode.Usagef("-H %q: %s is set by storectl: %s", arg, canonical, why)
		}
		h.Add(canonical, value)
	}
	return h, nil
}

// validName is RFC 9110's token: the characters a header name may hold.
func validName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if r > 0x7e || r <= ' ' || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return false
		}
	}
	return true
}
