package comingsoon

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/shopread"
)

// ListOptions are the inputs of `comingsoon list`.
type ListOptions struct {
	cmdutil.ShopDeps
	Loc   *time.Location
	Now   func() time.Time
	Pages cmdutil.PageFlags
}

func newList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{ShopDeps: f.ShopDeps(), Loc: time.Local, Now: cmdutil.Clock}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List coming-soon rules, newest first",
		Long: `List coming-soon rules, newest first, with what each applies to and when it
runs (times in your local zone). STATUS is the rule's state now: active,
upcoming (before its start), ended (past its end date, whatever its status)
or inactive; CSV and workbooks keep the status as sent, with the state beside
it. -o json prints the rules as the server sent them; "comingsoon get ID"
adds the translations.`,
		Example: `  storectl comingsoon list
  storectl comingsoon list --all -o json --jq '.[].id'`,
		Args: cmdutil.NoArgs,
		RunE: cmdutil.ListRunE(opts, &opts.Pages, runF, runList),
	}
	cmdutil.AddPageFlags(cmd, &opts.Pages, "rules")
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	now := opts.Now()
	return shopread.PrintList(ctx, opts.ShopDeps, opts.Pages, shopread.List{
		Noun: "coming-soon rules", Sheet: "rules", Fetch: (*shop.Client).ListRules, Columns: ruleColumns(opts.Loc, now), DataColumns: ruleDataColumns(now)})
}
