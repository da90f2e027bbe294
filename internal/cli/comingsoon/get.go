package comingsoon

import (
	"context"
	"encoding/json"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/completion"
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
	return cmdutil.PrintByID(ctx, opts.Printer, opts.ShopClient, ruleID, opts.ID, (*shop.Client).GetRule,
		func(res *shop.RuleResult) (json.RawMessage, cmdutil.Render) { return ruleSheet(opts.IO, res, opts.Loc) })
}

var ruleID = cmdutil.IDArg{Noun: "rule", List: "storectl comingsoon list"}

// printRule prints a rule: the server's bytes for JSON-like formats, the
// sheet in table mode.
func printRule(p *output.Printer, ios *iostreams.IOStreams, res *shop.RuleResult, loc *time.Location) error {
	return p.Object(ruleSheet(ios, res, loc))
}

func ruleSheet(ios *iostreams.IOStreams, res *shop.RuleResult, loc *time.Location) (json.RawMessage, cmdutil.Render) {
	return res.Raw, func(w io.Writer) error { return renderRule(w, ios, res.Rule, loc) }
}
