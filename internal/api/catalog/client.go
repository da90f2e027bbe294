// Package catalog is the typed client of the catalog API ({catalog_base_url},
// ending in /sfs/v1): filter, search and settings.
package catalog

import (
	"github.com/storectl/storectl/internal/httpx"
)

// Client calls the catalog API through the shared transport.
type Client struct {
	http *httpx.Client
}

// New wraps a transport whose BaseURL is the store's {catalog_base_url}.
func New(h *httpx.Client) *Client { return &Client{http: h} }
