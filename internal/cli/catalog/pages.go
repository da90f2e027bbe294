package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	api "github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/output"
)

// pageFetch fetches one page and returns its products and pagination (nil
// when the answer has none).
type pageFetch func(ctx context.Context, page int) ([]json.RawMessage, *api.Pagination, error)

// collectPages fetches page 1, 2, … while the answer says hasMorePages,
// showing page n/N with an ETA on a terminal. It stops at the API's last
// reachable page, and at a page that is empty although more are announced
// (a server looping on itself), saying so on warn; a listing that grows
// past its bound (api.Pages) is an error.
func collectPages(ctx context.Context, progress *output.Progress, warn io.Writer, fetch pageFetch) (products []json.RawMessage, pages int, err error) {
	start := time.Now()
	var walk api.Pages
	for page := 1; ; page++ {
		got, pg, err := fetch(ctx, page)
		if err != nil {
			return nil, page - 1, err
		}
		products = append(products, got...)
		stop, err := walk.After(page, len(got), pg)
		if err != nil {
			return nil, page, err
		}
		switch stop {
		case api.LastPage:
			return products, page, nil
		case api.EmptyPage:
			fmt.Fprintf(warn, "warning: page %d was empty although the server announced more pages; stopping there\n", page)
			return products, page, nil
		case api.PageCap:
			fmt.Fprintf(warn, "warning: stopped at page %d, the last the API serves; narrow the query or raise --limit to see the rest\n", page)
			return products, page, nil
		}
		last := int(pg.LastPage.Value)
		progress.Update("fetched pages " + output.FormatETA(page, last, time.Since(start), 0))
	}
}
