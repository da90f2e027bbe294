package catalog

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/httpx"
	"github.com/storectl/storectl/internal/sandbox"
)

// newTestClient is a client of an in-memory sandbox holding the demo store.
func newTestClient(t *testing.T, token string, opts sandbox.Options) *Client {
	t.Helper()
	h, err := httpx.New(httpx.Config{BaseURL: "https://sandbox.test/sfs/v1", Token: token, Transport: sandbox.Transport(sandbox.New(opts))})
	if err != nil {
		t.Fatal(err)
	}
	return New(h)
}

func TestFilterAgainstSandbox(t *testing.T) {
	c := newTestClient(t, sandbox.CatalogToken, sandbox.Options{})
	r, err := c.Filter(context.Background(), FilterParams{Limit: 5, Filter: []Selection{{"pf_opt_color", "Black"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Products) != 5 || r.OptionsKey != "filters" || len(r.Options) == 0 || !r.HasFilter {
		t.Fatalf("got %d products, %q options %d, has_filter %v", len(r.Products), r.OptionsKey, len(r.Options), r.HasFilter)
	}
	if !r.Pagination.HasMorePages.Value || r.Pagination.PerPage.Value != 5 {
		t.Errorf("pagination %+v", r.Pagination)
	}
	p, err := DecodeProduct(r.Products[0])
	if err != nil || p.ID == "" || p.Title == "" {
		t.Errorf("first product %+v, %v", p, err)
	}
}

func TestFilterSyncing(t *testing.T) {
	c := newTestClient(t, sandbox.CatalogToken, sandbox.Options{SyncRequests: 1})
	_, err := c.Filter(context.Background(), FilterParams{})
	var se *SyncingError
	if !errors.As(err, &se) || se.Message == "" {
		t.Fatalf("err = %v; want a SyncingError with the server's message", err)
	}
	if _, err := c.Filter(context.Background(), FilterParams{}); err != nil {
		t.Fatalf("after the sync: %v", err)
	}
}

func TestFilterNoFilter(t *testing.T) {
	c := newTestClient(t, sandbox.CatalogToken, sandbox.Options{})
	_, err := c.Filter(context.Background(), FilterParams{FormID: int64p(424242)})
	var nf *NoFilterError
	if !errors.As(err, &nf) || nf.FormID != 424242 || !strings.Contains(err.Error(), "No Filter") {
		t.Fatalf("err = %v; want a NoFilterError", err)
	}
}

func TestFilterLocalCheckSendsNothing(t *testing.T) {
	var log strings.Builder
	c := newTestClient(t, sandbox.CatalogToken, sandbox.Options{Log: &log})
	if _, err := c.Filter(context.Background(), FilterParams{Collection: "summer"}); err == nil {
		t.Fatal("a handle was accepted")
	}
	if log.Len() != 0 {
		t.Errorf("sent %s", log.String())
	}
}

func TestSearchAndScopes(t *testing.T) {
	c := newTestClient(t, sandbox.CatalogToken, sandbox.Options{})
	r, err := c.Search(context.Background(), SearchParams{Term: "jacket", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if r.Term != "jacket" || len(r.Products) != 3 || r.TotalProduct == nil || r.Pagination == nil {
		t.Errorf("got %+v", r)
	}
	empty, err := c.Search(context.Background(), SearchParams{})
	if err != nil || len(empty.PopularKeywords) == 0 {
		t.Errorf("empty term: %+v, %v", empty, err)
	}

	readOnly := newTestClient(t, sandbox.CatalogReadToken, sandbox.Options{})
	_, err = readOnly.Settings(context.Background())
	var ae *httpx.AuthError
	if !errors.As(err, &ae) || ae.Status != http.StatusForbidden {
		t.Fatalf("settings with a read:catalog token: %v; want 403", err)
	}
	s, err := c.Settings(context.Background())
	if err != nil || len(s.Data) == 0 || s.Data[0] != '{' || strings.Contains(string(s.Data[:20]), `"success"`) {
		t.Fatalf("settings: %.80s, %v", s.Data, err)
	}
}
