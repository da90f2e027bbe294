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
	"github.com/storectl/storectl/internal/cli/shopread"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// GetOptions are the inputs of `comingsoon get`.
type GetOptions struct {
	cmdutil.ShopDeps
	Loc *time.Location
	Now func() time.Time
	ID  string
}

func newGet(f *cmdutil.Factory, runF func(*GetOptions) error) *cobra.Command {
	opts := &GetOptions{ShopDeps: f.ShopDeps(), Loc: time.Local, Now: cmdutil.Clock}
	return &cobra.Command{
		Use:   "get ID",
		Short: "Show one coming-soon rule with its translations",
		Long: `Show one rule: when it runs (in your local zone), what it applies to, and its
translated texts, one row per language; the heading gives its state now
(active, upcoming, ended or inactive). -o json prints it as the server sent it.`,
		Example: `  storectl comingsoon get 12
  storectl comingsoon get 12 -o json --jq .translations`,
		Args:              ruleID.Args(),
		ValidArgsFunction: completion.OneID(f, completion.Rules),
		RunE:              cmdutil.GetRunE(opts, &opts.ID, runF, runGet),
	}
}

func runGet(ctx context.Context, opts *GetOptions) error {
	return shopread.PrintByID(ctx, opts.ShopDeps, ruleID, opts.ID, (*shop.Client).GetRule,
		func(res *shop.RuleResult) (json.RawMessage, shopread.Render) {
			return ruleSheet(opts.IO, res, opts.Loc, opts.Now())
		})
}

var ruleID = cmdutil.IDArg{Noun: "rule", List: "storectl comingsoon list"}

// printRule prints a rule: the server's bytes for JSON-like formats, the
// sheet in table mode.
func printRule(p *output.Printer, ios *iostreams.IOStreams, res *shop.RuleResult, loc *time.Location, now time.Time) error {
	return p.Object(ruleSheet(ios, res, loc, now))
}

func ruleSheet(ios *iostreams.IOStreams, res *shop.RuleResult, loc *time.Location, now time.Time) (json.RawMessage, shopread.Render) {
	return res.Raw, func(w io.Writer) error { return renderRule(w, ios, res.Rule, loc, now) }
}
