package catalog

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	api "github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// SearchOptions are the inputs of `catalog search`.
type SearchOptions struct {
	queryOptions
	Params api.SearchParams
}

const searchPath = "storectl catalog search"

func newSearch(f *cmdutil.Factory, runF func(*SearchOptions) error) *cobra.Command {
	opts := &SearchOptions{queryOptions: newQueryOptions(f)}
	var shared sharedFlags
	cmd := &cobra.Command{
		Use:   "search [TERM]",
		Short: "Search products as the storefront's instant search does",
		Long: `Call the catalog API's search endpoint and show the matching products, the
suggested keywords and matched collections, with the total product count.
Without TERM, the store's zero-character answer: its popular keywords and
products.

A TERM longer than 512 characters is cut there, as the server would, with a
warning. --limit is at most 200 (the store's instant-search limit by
default). While the store's first product sync runs, the request is retried
with backoff for up to --wait-sync.

-o json and -o yaml print the server's answer as it came, under "result":
the products are at .result.products, with .result.suggestions,
.result.total_product and .result.pagination (without TERM,
.result.popular_keywords and .result.products). "catalog filter" has its
products at the top, .products: the two endpoints answer in two shapes, and
storectl keeps each as sent. With --all, .result.products holds every page's.
-o ndjson and -o csv print the products alone, one per line, in both.`,
		Example: `  storectl catalog search shirt
  storectl catalog search "rain jacket" --sort price-ascending --limit 5
  storectl catalog search
  storectl catalog search shirt -o ndjson | jq -r .title`,
		Args: cmdutil.MaximumArgs(1, "one search term (quote a phrase)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := shared.check(cmd); err != nil {
				return err
			}
			if len(args) == 1 {
				opts.Params.Term = args[0]
			}
			opts.Params.Sort, opts.Params.Page, opts.Params.Limit = shared.sort, shared.page, shared.limit
			opts.Params.Context = shared.context()
			return cmdutil.Run(cmd.Context(), opts, runF, runSearch)
		},
	}
	shared.register(cmd, &opts.queryOptions, api.DefaultSearchSort)
	return cmd
}

func runSearch(ctx context.Context, opts *SearchOptions) error {
	if term, cut := api.TruncateTerm(opts.Params.Term); cut {
		fmt.Fprintf(opts.IO.ErrOut, "warning: the search term is %d characters long; the API uses only the first %d, so it was cut there\n",
			len([]rune(opts.Params.Term)), api.MaxTermRunes)
		opts.Params.Term = term
	}
	q := query[api.SearchParams, *api.SearchResult]{path: searchPath, params: opts.Params, limit: opts.Params.Limit,
		warn: func() { warnSort(opts.IO.ErrOut, opts.Params.Sort, api.DefaultSearchSort) }, call: (*api.Client).Search}
	t, err := q.run(ctx, &opts.queryOptions)
	if t == nil || err != nil {
		return err
	}
	if len(t.settings.Fields) == 0 {
		if err := searchExtras(opts.IO.Out, opts.IO, t.first); err != nil {
			return err
		}
	}
	if !t.settings.Quiet {
		searchFooter(opts, t.first, t.products)
	}
	return nil
}

// searchExtras writes what search finds besides products: suggested
// keywords, matched collections, and for the empty term the popular
// keywords.
func searchExtras(w io.Writer, ios *iostreams.IOStreams, r *api.SearchResult) error {
	var pairs [][2]string
	if s := keywordList(r.Suggestions); s != "" {
		pairs = append(pairs, [2]string{"Suggestions", s})
	}
	if s := keywordList(r.PopularKeywords); s != "" {
		pairs = append(pairs, [2]string{"Popular keywords", s})
	}
	if len(pairs) > 0 {
		fmt.Fprintln(w)
		if err := output.RenderSheet(w, ios, pairs); err != nil {
			return err
		}
	}
	if len(r.Collections) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Collections:")
		return renderCollections(w, ios, r.Collections)
	}
	return nil
}

func searchFooter(opts *SearchOptions, r *api.SearchResult, count int) {
	errOut := opts.IO.ErrOut
	total, known := int64(0), true
	switch {
	case r.TotalProduct != nil:
		total = *r.TotalProduct
	case r.Pagination != nil && r.Pagination.Total.Valid:
		total = r.Pagination.Total.Value
	default:
		known = false
	}
	switch {
	case r.IsEmpty:
		fmt.Fprintf(errOut, "nothing matches %q\n", r.Term)
	case !known:
		fmt.Fprintf(errOut, "%d products\n", count)
	case total == 0:
		fmt.Fprintf(errOut, "no products match %q\n", r.Term)
	case count == 0:
		fmt.Fprintf(errOut, "no products on this page · %d total\n", total)
	case opts.All || r.Pagination == nil:
		fmt.Fprintf(errOut, "%d products shown · %d total\n", count, total)
	default:
		output.PageFooter(opts.IO, int(r.Pagination.CurrentPage.Value), int(r.Pagination.LastPage.Value), int(total))
	}
}
