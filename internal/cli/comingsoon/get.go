package comingsoon

import (
	"context"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/completion"
	"github.com/storectl/storectl/internal/ids"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// GetOptions are the inputs of `comingsoon get`.
type GetOptions struct {
	IO         *iostreams.IOStreams
	ShopClient func() (*shop.Client, error)
	Printer    func() (*output.Printer, error)
	Loc        *time.Location

	ID string
}

func newGet(f *cmdutil.Factory) *cobra.Command {
	opts := &GetOptions{IO: f.IOStreams, ShopClient: f.ShopClient, Printer: f.Printer, Loc: time.Local}
	return &cobra.Command{
		Use:   "get ID",
		Short: "Show one coming-soon rule with its translations",
		Long: `Show one rule: when it runs (in your local zone), what it applies to, and its
translated texts, one row per language. -o json prints it as the server sent it.`,
		Example: `  storectl comingsoon get 12
  storectl comingsoon get 12 -o json --jq .translations`,
		Args:              cmdutil.ExactArgs(1, "one rule ID"),
		ValidArgsFunction: completion.OneID(f, completion.Rules),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			return runGet(cmd.Context(), opts)
		},
	}
}

func runGet(ctx context.Context, opts *GetOptions) error {
	id, ok := ids.Normalize(opts.ID)
	if !ok {
		return cmdutil.FlagErrorf("rule ID %q is not a number: `storectl comingsoon list` shows the IDs", strings.TrimSpace(opts.ID))
	}
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	client, err := opts.ShopClient()
	if err != nil {
		return err
	}
	res, err := client.GetRule(ctx, id)
	if err != nil {
		return err
	}
	return printRule(p, opts.IO, res, opts.Loc)
}

// printRule prints a rule: the server's bytes for JSON-like formats, the
// sheet in table mode.
func printRule(p *output.Printer, ios *iostreams.IOStreams, res *shop.RuleResult, loc *time.Location) error {
	return p.Object(res.Raw, func(w io.Writer) error { return renderRule(w, ios, res.Rule, loc) })
}
