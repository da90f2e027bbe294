package bis

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// ListOptions are the inputs of `bis list`.
type ListOptions struct {
	IO         *iostreams.IOStreams
	Printer    func() (*output.Printer, error)
	ShopClient func() (*shop.Client, error)
	Progress   func() *output.Progress
	Page       int
	All        bool
}

func newList(f *cmdutil.Factory) *cobra.Command {
	opts := &ListOptions{IO: f.IOStreams, Printer: f.Printer, ShopClient: f.ShopClient, Progress: f.Progress}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List back-in-stock submissions, newest first",
		Long: `List back-in-stock submissions one page at a time (newest first), or every
page with --all. For a spreadsheet or a mailing tool, ` + "`bis export`" + ` streams every
page to a file instead.

STATUS is pending until the restock e-mail is sent, then sent.`,
		Example: `  storectl bis list
  storectl bis list --page 2
  storectl bis list --all -o json --jq '.[] | select(.status == 0) | .customer_email'`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cmdutil.MutuallyExclusive("--page and --all cannot be used together", cmd.Flags().Changed("page"), opts.All); err != nil {
				return err
			}
			return runList(cmd.Context(), opts)
		},
	}
	cmd.Flags().IntVar(&opts.Page, "page", 1, "page `number` to show")
	cmd.Flags().BoolVar(&opts.All, "all", false, "fetch every page")
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	if opts.Page < 1 {
		return cmdutil.FlagErrorf("--page must be 1 or more (got %d)", opts.Page)
	}
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	client, err := opts.ShopClient()
	if err != nil {
		return err
	}
	items, last, err := fetchList(ctx, opts, client)
	if err != nil {
		return err
	}
	if err := p.List(items, listColumns(p.Format() == output.Table)); err != nil {
		return err
	}
	if p.IsTable() {
		if len(items) == 0 {
			fmt.Fprintln(opts.IO.ErrOut, "no submissions on this page")
		}
		output.PageFooter(opts.IO, int(last.CurrentPage.Value), int(last.LastPage.Value), int(last.Total.Value))
	}
	return nil
}

// fetchList fetches the page asked for, or with --all every page, and
// returns the items with the last page's pagination.
func fetchList(ctx context.Context, opts *ListOptions, client *shop.Client) ([]json.RawMessage, shop.Pagination, error) {
	if !opts.All {
		page, err := client.ListSubmissions(ctx, opts.Page)
		if err != nil {
			return nil, shop.Pagination{}, err
		}
		return page.Items, page.Pagination, nil
	}
	var items []json.RawMessage
	var last shop.Pagination
	progress := opts.Progress()
	defer progress.Stop()
	start := time.Now()
	err := shop.EachPage(ctx, 1, client.ListSubmissions, func(page *shop.Page) error {
		items = append(items, page.Items...)
		last = page.Pagination
		progress.Update("page " + output.FormatETA(int(last.CurrentPage.Value), int(last.LastPage.Value), time.Since(start)))
		return nil
	})
	return items, last, err
}
