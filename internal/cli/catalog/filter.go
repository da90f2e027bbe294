package catalog

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	api "github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/completion"
	"github.com/storectl/storectl/internal/output"
)

// FilterOptions are the inputs of `catalog filter`.
type FilterOptions struct {
	queryOptions
	Params      api.FilterParams
	ShowFilters bool
}

const filterPath = "storectl catalog filter"

func newFilter(f *cmdutil.Factory, runF func(*FilterOptions) error) *cobra.Command {
	opts := &FilterOptions{queryOptions: newQueryOptions(f)}
	var shared sharedFlags
	var filters, forms []string
	var formID int64
	cmd := &cobra.Command{
		Use:   "filter",
		Short: "List a page's products and filter options as the storefront filter sees them",
		Long: `Call the catalog API's filter endpoint with any of its parameters and show
the products (id, title, vendor, type, price range, availability, tags) and,
with --show-filters, the page's filter options with their values, product
counts and what is selected. Prices already reflect --rate and --adjustment.

With no flags: the All Products filter over the whole catalog. --collection
takes a collection's numeric id (0 is All Products), never its handle.
Select filter values with --filter KEY=VALUE, where KEY is an option's handle
or id (shown under KEY by --show-filters); repeat it to select several.
A vehicle finder form is used with --form-id ID and --form FIELD_ID=VALUE.

Local checks (exit 2, nothing sent): --page is 1 to 9999, --limit at most 200,
--collection numeric. An unknown --sort is sent, with a warning: the server
falls back to its default order.

While the store's first product sync runs, the request is retried with
backoff for up to --wait-sync.

-o json and -o yaml print the server's answer as it came: the products are
at .products, with .filters, .has_filter and .pagination. "catalog search"
has its products under "result" (.result.products): the two endpoints answer
in two shapes, and storectl keeps each as sent. With --all, .products holds
every page's. -o ndjson and -o csv print the products alone, one per line,
in both.`,
		Example: `  storectl catalog filter --collection 400123456001 --sort price-ascending --show-filters
  storectl catalog filter --filter pf_opt_color=Black --filter pf_p_price=50:100 --limit 10
  storectl catalog filter --all -o json --jq '.products[].id'
  storectl catalog filter --page-type search --query "rain jacket" -o ndjson`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := shared.check(cmd); err != nil {
				return err
			}
			var err error
			if opts.Params.Filter, err = selections("filter", filters); err != nil {
				return err
			}
			if opts.Params.Form, err = selections("form", forms); err != nil {
				return err
			}
			if cmd.Flags().Changed("form-id") {
				opts.Params.FormID = &formID
			}
			opts.Params.SortBy, opts.Params.Page, opts.Params.Limit = shared.sort, shared.page, shared.limit
			opts.Params.Context = shared.context()
			return cmdutil.Run(cmd.Context(), opts, runF, runFilter)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Params.Collection, "collection", "", "collection `id` (numeric; 0 for All Products)")
	fl.StringVar(&opts.Params.PageType, "page-type", "", "page `type`: collection (default), search or index")
	fl.StringVar(&opts.Params.Query, "query", "", "free-text `search` within the page (q)")
	fl.StringArrayVar(&filters, "filter", nil, "select a filter value, `KEY=VALUE` (repeatable)")
	fl.StringArrayVar(&forms, "form", nil, "vehicle finder field selection, `FIELD_ID=VALUE` (repeatable)")
	fl.Int64Var(&formID, "form-id", 0, "vehicle finder filter `id` to use with --form")
	fl.StringVar(&opts.Params.Vendor, "vendor", "", "only this `vendor`")
	fl.StringVar(&opts.Params.Type, "type", "", "only this product `type`")
	fl.BoolVar(&opts.ShowFilters, "show-filters", false, "list the filter options below the products (table output)")
	shared.register(cmd, &opts.queryOptions, api.DefaultFilterSort)
	_ = cmd.RegisterFlagCompletionFunc("page-type", completion.PageType())
	return cmd
}

func runFilter(ctx context.Context, opts *FilterOptions) error {
	q := query[api.FilterParams, *api.FilterResult]{path: filterPath, params: opts.Params, limit: opts.Params.Limit,
		warn: func() { warnFilter(opts) }, call: (*api.Client).Filter}
	t, err := q.run(ctx, &opts.queryOptions)
	if t == nil || err != nil {
		return err
	}
	if opts.ShowFilters && len(t.settings.Fields) == 0 && len(t.first.Options) > 0 {
		fmt.Fprintln(opts.IO.Out)
		if err := renderOptions(opts.IO.Out, opts.IO, t.first.Options, t.first.OptionsKey == "form"); err != nil {
			return err
		}
	}
	if !t.settings.Quiet {
		filterFooter(opts, t.first, t.products, t.pages)
	}
	return nil
}

// warnFilter points out parameters the server accepts but will not use as
// the user likely meant.
func warnFilter(opts *FilterOptions) {
	p := opts.Params
	warnSort(opts.IO.ErrOut, p.SortBy, api.DefaultFilterSort)
	if p.Collection != "" && (p.PageType == api.PageTypeSearch || p.PageType == api.PageTypeIndex) {
		fmt.Fprintf(opts.IO.ErrOut, "warning: --collection is not used with --page-type %s\n", p.PageType)
	}
}

func filterFooter(opts *FilterOptions, first *api.FilterResult, count, pages int) {
	errOut := opts.IO.ErrOut
	pg := first.Pagination
	switch {
	case count == 0:
		fmt.Fprintln(errOut, "no products match")
	case opts.All:
		fmt.Fprintf(errOut, "%s from %s\n", output.Plural(count, "product"), output.Plural(pages, "page"))
	default:
		output.PageFooter(opts.IO, int(pg.CurrentPage.Value), int(pg.LastPage.Value), int(pg.Total.Value))
	}
	switch n := len(first.Options); {
	case n > 0 && !opts.ShowFilters:
		fmt.Fprintf(errOut, "%d filter options · --show-filters lists their values\n", n)
	case n == 0 && opts.ShowFilters:
		fmt.Fprintln(errOut, "no filter options: no filter is configured for this page")
	}
}
