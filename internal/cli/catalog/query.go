package catalog

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"time"

	api "github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
	"github.com/storectl/storectl/internal/typo"
)

// queryOptions are the inputs filter and search share.
type queryOptions struct {
	IO            *iostreams.IOStreams
	CatalogClient func() (*api.Client, error)
	Printer       func() (*output.Printer, error)
	Settings      func() (*config.Settings, error)
	Progress      func() *output.Progress

	All      bool
	WaitSync time.Duration

	// syncFirstDelay replaces the first retry delay of sync waiting (tests).
	syncFirstDelay time.Duration
}

func newQueryOptions(f *cmdutil.Factory) queryOptions {
	return queryOptions{IO: f.IOStreams, CatalogClient: f.CatalogClient, Printer: f.Printer, Settings: f.Settings, Progress: f.Progress}
}

// productParams are a query's parameters: FilterParams or SearchParams.
type productParams[P any] interface {
	Values() (url.Values, error)
	Paged(page, limit int) P
}

// query is a filter or search as its command runs it.
type query[P productParams[P], R interface{ ProductPage() api.ProductPage }] struct {
	path   string // the command, for messages
	params P
	limit  int    // --limit (0: not given)
	warn   func() // points out parameters the server takes but will not use as meant
	call   func(c *api.Client, ctx context.Context, params P) (R, error)
}

// tableRun is a query printed as a table, below which its command adds
// its own extras and footer.
type tableRun[R any] struct {
	first    R // the first answer
	settings *config.Settings
	products int // how many, from every page
	pages    int
}

// run checks the parameters (a usage error naming the flag: nothing is
// sent), sends the query for the page the flags chose or, with --all, for
// every page (at the API's largest page size unless --limit says
// otherwise), each request waiting out the store's initial product sync
// for up to --wait-sync, and prints the answer as the output asks. It
// returns the table run when the command has more to print.
func (q query[P, R]) run(ctx context.Context, o *queryOptions) (*tableRun[R], error) {
	if _, err := q.params.Values(); err != nil {
		return nil, paramError(q.path, err)
	}
	p, err := o.Printer()
	if err != nil {
		return nil, err
	}
	s, err := o.Settings()
	if err != nil {
		return nil, err
	}
	q.warn()
	client, err := o.CatalogClient()
	if err != nil {
		return nil, err
	}
	waiter := newSyncWaiter(o.WaitSync, o.Progress, o.IO.ErrOut, o.IO.ErrRedraw)
	if o.syncFirstDelay > 0 {
		waiter.first = o.syncFirstDelay
	}

	t := &tableRun[R]{settings: s, pages: 1}
	var firstPage api.ProductPage
	fetch := func(ctx context.Context, page int) ([]json.RawMessage, *api.Pagination, error) {
		params := q.params
		if o.All {
			params = params.Paged(page, cmp.Or(q.limit, api.MaxLimit))
		}
		var res R
		err := waiter.run(ctx, func() (err error) {
			res, err = q.call(client, ctx, params)
			return err
		})
		if err != nil {
			return nil, nil, explain(err, q.path, scopeCatalog)
		}
		pg := res.ProductPage()
		if firstPage.Raw == nil {
			t.first, firstPage = res, pg
		}
		return pg.Products, pg.Pagination, nil
	}

	var products []json.RawMessage
	whole := json.RawMessage(nil)
	if o.All {
		if products, t.pages, err = collectPages(ctx, o.Progress(), o.IO.ErrOut, fetch); err != nil {
			return nil, err
		}
		if whole, err = api.MergeProducts(firstPage.Raw, firstPage.ProductsAt, products); err != nil {
			return nil, err
		}
	} else {
		if products, _, err = fetch(ctx, 0); err != nil {
			return nil, err
		}
		whole = firstPage.Raw
	}
	o.Progress().Stop()
	t.products = len(products)

	p = p.Sheet("products")
	switch view(p, s) {
	case viewWhole:
		return nil, p.Object(whole, nil)
	case viewProducts:
		return nil, p.List(products, productColumns())
	}
	return t, p.List(products, productColumns())
}

// warnSort points out a sort order the server will not recognise: it
// silently falls back to its default.
func warnSort(w io.Writer, sort, fallback string) {
	if sort != "" && !api.KnownSort(sort) {
		msg := fmt.Sprintf("warning: --sort %q is not a sort order the catalog API knows; the server falls back to its default (%s)", sort, fallback)
		if guess := typo.Suggest(sort, api.SortValues); guess != "" {
			msg += fmt.Sprintf("; did you mean `--sort %s`?", guess)
		}
		fmt.Fprintln(w, msg)
	}
}
