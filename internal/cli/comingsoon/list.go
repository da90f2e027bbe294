package comingsoon

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// ListOptions are the inputs of `comingsoon list`.
type ListOptions struct {
	IO         *iostreams.IOStreams
	ShopClient func() (*shop.Client, error)
	Printer    func() (*output.Printer, error)
	Progress   func() *output.Progress
	Loc        *time.Location

	Pages cmdutil.PageFlags
}

func newList(f *cmdutil.Factory) *cobra.Command {
	opts := &ListOptions{IO: f.IOStreams, ShopClient: f.ShopClient, Printer: f.Printer, Progress: f.Progress, Loc: time.Local}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List coming-soon rules, newest first",
		Long: `List coming-soon rules, newest first, with what each applies to and when it
runs (times in your local zone). -o json prints the rules as the server sent
them; "comingsoon get ID" adds the translations.`,
		Example: `  storectl comingsoon list
  storectl comingsoon list --all -o json --jq '.[].id'`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cmdutil.CheckPageFlags(cmd, opts.Pages); err != nil {
				return err
			}
			return runList(cmd.Context(), opts)
		},
	}
	cmdutil.AddPageFlags(cmd, &opts.Pages, "rules")
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	return cmdutil.PrintList(ctx, opts.IO, opts.Printer, opts.ShopClient, opts.Progress, opts.Pages, cmdutil.ShopList{
		Noun: "coming-soon rules", Fetch: (*shop.Client).ListRules, Columns: ruleColumns(opts.Loc)})
}
