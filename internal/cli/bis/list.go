package bis

import (
	"context"

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
	Pages      cmdutil.PageFlags
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
			if err := cmdutil.CheckPageFlags(cmd, opts.Pages); err != nil {
				return err
			}
			return runList(cmd.Context(), opts)
		},
	}
	cmdutil.AddPageFlags(cmd, &opts.Pages, "submissions")
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	return cmdutil.PrintList(ctx, opts.IO, opts.Printer, opts.ShopClient, opts.Progress, opts.Pages, cmdutil.ShopList{
		Noun: "submissions", Fetch: (*shop.Client).ListSubmissions, Columns: listColumns(true), DataColumns: listColumns(false)})
}
