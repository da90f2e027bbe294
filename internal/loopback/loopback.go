// Package loopback says whether a host is this machine: plain http is
// allowed only to such hosts, everywhere in storectl (the API's base URLs,
// webhook receivers), since nothing sent to them crosses a network.
package loopback

import (
	"net/netip"
	"strings"
)

// Host reports whether host (a name or an address, without a port) is
// localhost, in 127.0.0.0/8 or ::1 (also IPv4-mapped).
func Host(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" {
		return true
	}
	addr, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && addr.Unmap().IsLoopback()
}
