package mcp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/storectl/storectl/internal/exitcode"
)

// Path is where the HTTP transport answers.
const Path = "/mcp"

// Listen opens addr, which must be a loopback address: the server answers
// for the stores of whoever runs it, and nothing off this machine may ask.
func Listen(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, exitcode.UsageHint(fmt.Errorf("--http %q: %v", addr, err), "give a loopback address and port, such as 127.0.0.1:8765 (port 0: any free one)")
	}
	if !loopbackHost(host) {
		return nil, exitcode.UsageHint(fmt.Errorf("--http %q is not a loopback address: storectl mcp serves this machine only", addr),
			"use 127.0.0.1:PORT, [::1]:PORT or localhost:PORT")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, exitcode.Wrap(exitcode.Usage, fmt.Errorf("--http %s: %w", addr, err))
	}
	return ln, nil
}

// loopbackHost reports a host name or address of this machine only.
func loopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Guard refuses, before the protocol sees it, a request whose Host is not
// this machine's loopback (a DNS rebinding: a web page whose name now
// points at 127.0.0.1) or that a web page on another origin sent (its
// Origin): a browser tab must never reach the stores. Clients that are
// not browsers send no Origin.
func Guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if !loopbackHost(host) {
			http.Error(w, "storectl mcp: forbidden: the Host is not this machine's loopback address", http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !loopbackOrigin(origin) {
			http.Error(w, "storectl mcp: forbidden: requests from web pages of other origins are refused", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}

func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && loopbackHost(u.Hostname())
}

// ServeHTTP serves srv over Streamable HTTP on ln until ctx ends.
func ServeHTTP(ctx context.Context, srv *sdk.Server, ln net.Listener) error {
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	mux := http.NewServeMux()
	mux.Handle(Path, Guard(handler))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := hs.Shutdown(shutdown)
	if errors.Is(err, context.DeadlineExceeded) {
		err = hs.Close()
	}
	return err
}
