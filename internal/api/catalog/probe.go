package catalog

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/storectl/storectl/internal/httpx"
)

// Scopes are what a catalog token was seen to allow.
type Scopes struct {
	ReadCatalog bool // GET /filter and /search
	ReadConfig  bool // GET /settings
}

// Probe makes the smallest request of each scope and reports which succeed.
// A 401 is returned as an error (the token itself is bad); a 403 only means
// that scope is missing.
func (c *Client) Probe(ctx context.Context) (Scopes, error) {
	var s Scopes
	var err error
	if s.ReadCatalog, err = c.allowed(ctx, "/filter", url.Values{"limit": {"1"}}); err != nil {
		return s, err
	}
	if s.ReadConfig, err = c.allowed(ctx, "/settings", nil); err != nil {
		return s, err
	}
	return s, nil
}

func (c *Client) allowed(ctx context.Context, path string, q url.Values) (bool, error) {
	_, err := c.http.Do(ctx, httpx.Request{Method: "GET", Path: path, Query: q})
	var authErr *httpx.AuthError
	if errors.As(err, &authErr) && authErr.Status == http.StatusForbidden {
		return false, nil
	}
	return err == nil, err
}
