// Package loopback says whether a host is this machine: plain http is
// allowed only to such hosts, everywhere in storectl (the API's base URLs,
// webhook receivers), since nothing sent to them crosses a network.
package loopback

import (
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// Host reports whether host (a name or an address, without a port) is
// localhost (in any case), in 127.0.0.0/8 or ::1 (also IPv4-mapped). A
// name with a trailing dot ("localhost.", "127.0.0.1.") is not: Go's
// resolver does not find it in the hosts file and asks DNS, whose answer
// could be any machine.
func Host(host string) bool {
	host = strings.ToLower(host)
	if host == "localhost" {
		return true
	}
	addr, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && addr.Unmap().IsLoopback()
}

// Proxy is http.ProxyFromEnvironment for every host but this machine's: a
// request to any form of a loopback host that Host accepts (LOCALHOST,
// [::1], ::ffff:127.0.0.1) goes straight to it, never through HTTP_PROXY.
// Plain http is allowed only to such hosts, so a proxy would see the token
// and the customers' data in clear; the standard rule exempts only
// "localhost" in lower case and addresses it parses.
func Proxy(req *http.Request) (*url.URL, error) {
	if Host(req.URL.Hostname()) {
		return nil, nil
	}
	return http.ProxyFromEnvironment(req)
}
