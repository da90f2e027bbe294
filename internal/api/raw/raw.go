// Package raw sends a request the caller writes whole (storectl api) to one
// of the APIs, through the same transport as the typed clients: the token,
// the shared pacing, 429 handling and the redacted trace all apply. The
// answer comes back as sent, whether it is a success or not.
package raw

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/storectl/storectl/internal/httpx"
)

// Client sends requests below one API's base URL with its token.
type Client struct {
	http *httpx.Client
}

// New wraps a transport whose BaseURL is the API's base URL.
func New(h *httpx.Client) *Client { return &Client{http: h} }

// Request is one call. Path is below the base URL; Header may not set
// Authorization (the client's token always goes there).
type Request struct {
	Method string
	Path   string
	Query  url.Values
	Header http.Header
	Body   []byte // nil: no body
}

// Response is the server's answer as sent.
type Response struct {
	Proto      string // "HTTP/1.1"
	Status     string // "200 OK"
	StatusCode int
	Header     http.Header
	Body       []byte
}

// Do sends r. A final answer comes back even when err says it is a
// failure (a typed error with its exit code: 3 refused, 4 auth, 1 other);
// without an answer (network, throttled past retrying) it is nil.
func (c *Client) Do(ctx context.Context, r Request) (*Response, error) {
	resp, err := c.http.Exchange(ctx, httpx.Request{Method: r.Method, Path: r.Path, Query: r.Query, Header: r.Header, Body: r.Body})
	if resp == nil {
		return nil, err
	}
	return &Response{Proto: resp.Proto, Status: resp.Status, StatusCode: resp.StatusCode, Header: resp.Header, Body: resp.Body}, err
}

// PaceLeft is the least time n more requests take under the pacing this
// client applies (0 when unpaced), for progress ETAs.
func (c *Client) PaceLeft(n int) time.Duration { return c.http.PaceLeft(n) }
