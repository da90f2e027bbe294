package preorder

import (
	"context"
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/flex"
	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/ids"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
)

// checkMirrorFlags refuses the list's own flags next to --variant-id or
// --product-id, and checks the ids, before anything is read.
func (opts *ProductsOptions) checkMirrorFlags(cmd *cobra.Command) error {
	for _, name := range []string{"keyword", "page", "all"} {
		if cmd.Flags().Changed(name) {
			return exitcode.Usagef("--%s lists the API's pages; --variant-id and --product-id answer from the mirror: use one or the other", name)
		}
	}
	var err error
	if opts.VariantID != "" {
		if opts.VariantID, err = ids.ParseID("--variant-id", opts.VariantID); err != nil {
			return err
		}
	}
	if opts.ProductID != "" {
		opts.ProductID, err = ids.ParseID("--product-id", opts.ProductID)
	}
	return err
}

// runProductsFromMirror shows which offer wins for a variant or product,
// from the mirrored priority rows and offers.
func runProductsFromMirror(ctx context.Context, opts *ProductsOptions) error {
	c, err := clockOf(opts.Settings, opts.Now())
	if err != nil {
		return err
	}
	offers := map[flex.ID]offerInfo{}
	what := "variant " + opts.VariantID
	if opts.VariantID == "" {
		what = "product " + opts.ProductID
	}
	return mirrorutil.PrintFromMirror(ctx, opts.MirrorDeps, mirrorutil.MirrorList{Groups: []string{"preorder"},
		Query: func(ctx context.Context, db *mirror.DB) ([]json.RawMessage, error) {
			rows, offerItems, err := db.Priority(ctx, mirror.PriorityFilter{VariantID: opts.VariantID, ProductID: opts.ProductID})
			for _, raw := range offerItems {
				if o, err := shop.DecodeOffer(raw); err == nil {
					offers[o.ID] = newOfferInfo(o, -1, c) // the mirror keeps no list order
				}
			}
			return rows, err
		},
		Columns: func(*output.Printer, []json.RawMessage) []output.Column { return priorityColumns(offers) },
		Empty:   what + " is in no pre-order offer", Sheet: "priority products"})
}
