package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"strconv"
	"time"

	"github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/api/raw"
	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/shopread"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/output"
)

// paginate fetches every page of c and prints them merged: a shop list as
// one array of its data items (what bis list --all -o json prints), a
// catalog filter or search as the first answer holding every page's
// products (what catalog filter --all -o json prints).
func paginate(ctx context.Context, opts *Options, client *raw.Client, c call, out answerPrinter) error {
	var fetched []byte
	var err error
	var items []json.RawMessage
	if c.route.api == credentials.Catalog {
		fetched, err = productPages(ctx, opts, client, c, out)
	} else {
		items, err = shopPages(ctx, opts, client, c, out)
	}
	opts.Progress().Stop()
	if err != nil || out.quiet {
		return err
	}
	if fetched != nil {
		return out.printer.Object(fetched, nil)
	}
	return out.printer.List(items, nil)
}

// pageRequest is c's request for one page.
func pageRequest(c call, page int, extra url.Values) raw.Request {
	r := c.request
	r.Query = maps.Clone(r.Query)
	for k, v := range extra {
		r.Query[k] = v
	}
	r.Query.Set("page", strconv.Itoa(page))
	return r
}

// send sends one page's request; a failure's answer is printed as for a
// single request.
func send(ctx context.Context, client *raw.Client, r raw.Request, out answerPrinter) ([]byte, error) {
	resp, err := client.Do(ctx, r)
	if err != nil {
		return nil, out.answer(resp, err)
	}
	return resp.Body, nil
}

func shopPages(ctx context.Context, opts *Options, client *raw.Client, c call, out answerPrinter) ([]json.RawMessage, error) {
	return shopread.FetchAllPages(ctx, opts.Progress(), client.PaceLeft, func(ctx context.Context, page int) (*shop.Page, error) {
		body, err := send(ctx, client, pageRequest(c, page, nil), out)
		if err != nil {
			return nil, err
		}
		p, err := shop.ParsePage(c.route.path, body)
		var bad *shop.BadResponse
		if errors.As(err, &bad) {
			return nil, exitcode.WithHint(exitcode.Failure, err,
				"--paginate follows shop lists, whose answers hold a data array and pagination; run it without --paginate")
		}
		return p, err
	})
}

// productPages follows hasMorePages as catalog filter --all does, 200
// products a page unless the request names a limit.
func productPages(ctx context.Context, opts *Options, client *raw.Client, c call, out answerPrinter) ([]byte, error) {
	decode := catalog.ProductPager(c.route.path)
	extra := url.Values{}
	if !c.request.Query.Has("limit") {
		extra.Set("limit", strconv.Itoa(catalog.MaxLimit))
	}
	var first catalog.ProductPage
	var products []json.RawMessage
	var pages catalog.Pages
	start := time.Now()
	for page := 1; ; page++ {
		body, err := send(ctx, client, pageRequest(c, page, extra), out)
		if err != nil {
			return nil, err
		}
		pg, err := decode(body)
		if err != nil {
			return nil, err
		}
		if page == 1 {
			first = pg
		}
		products = append(products, pg.Products...)
		stop, err := pages.After(page, len(pg.Products), pg.Pagination)
		if err != nil {
			return nil, err
		}
		if stop == catalog.MorePages {
			opts.Progress().Update("fetched pages " + output.FormatETA(page, int(pg.Pagination.LastPage.Value), time.Since(start), 0))
			continue
		}
		switch stop {
		case catalog.EmptyPage:
			fmt.Fprintf(opts.IO.ErrOut, "warning: page %d was empty although the server announced more pages; stopping there\n", page)
		case catalog.PageCap:
			fmt.Fprintf(opts.IO.ErrOut, "warning: stopped at page %d, the last the API serves; narrow the query or raise the limit field to see the rest\n", page)
		}
		return catalog.MergeProducts(first.Raw, first.ProductsAt, products)
	}
}
