package preorder

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
	"github.com/storectl/storectl/internal/config"
)

// GetOptions are the inputs of `preorder get`.
type GetOptions struct {
	cmdutil.ShopDeps
	Settings func() (*config.Settings, error)
	Now      func() time.Time
	ID       string
}

func newGet(f *cmdutil.Factory, runF func(*GetOptions) error) *cobra.Command {
	opts := &GetOptions{ShopDeps: f.ShopDeps(), Settings: f.Settings, Now: cmdutil.Clock}
	return &cobra.Command{
		Use:   "get ID",
		Short: "Show one pre-order offer in full",
		Long: `Show one offer as a sheet: its state now (active, upcoming, ended or draft),
when it runs (with countdowns), what it applies to, its inventory condition
and continue-selling switches, when orders ship, what the customer pays at
checkout and later, and every product with its limit. Offer dates are the
shop's time, read in the profile's shop_timezone (UTC when unset).

-o json prints the offer exactly as the server sent it.`,
		Example: `  storectl preorder get 3101
  storectl preorder get 3101 -o json`,
		Args:              offerID.Args(),
		ValidArgsFunction: completion.OneID(f, completion.Offers),
		RunE:              cmdutil.GetRunE(opts, &opts.ID, runF, runGet),
	}
}

func runGet(ctx context.Context, opts *GetOptions) error {
	c, err := clockOf(opts.Settings, opts.Now())
	if err != nil {
		return err
	}
	return shopread.PrintByID(ctx, opts.ShopDeps, offerID, opts.ID, (*shop.Client).GetOffer,
		func(res *shop.OfferResult) (json.RawMessage, shopread.Render) {
			return res.Raw, func(w io.Writer) error { return renderOffer(w, opts.IO, res.Offer, c) }
		})
}

var offerID = cmdutil.IDArg{Noun: "offer", List: "storectl preorder list"}
