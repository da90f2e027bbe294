package bis

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/shopread"
)

// ListOptions are the inputs of `bis list`.
type ListOptions struct {
	cmdutil.ShopDeps
	Pages cmdutil.PageFlags
}

func newList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{ShopDeps: f.ShopDeps()}
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
		RunE: cmdutil.ListRunE(opts, &opts.Pages, runF, runList),
	}
	cmdutil.AddPageFlags(cmd, &opts.Pages, "submissions")
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	return shopread.PrintList(ctx, opts.ShopDeps, opts.Pages, shopread.List{
		Noun: "submissions", Fetch: (*shop.Client).ListSubmissions, Columns: listColumns(true), DataColumns: listColumns(false)})
}
