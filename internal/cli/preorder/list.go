package preorder

import (
	"context"
	"encoding/json"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/shopread"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/output"
)

// ListOptions are the inputs of `preorder list`.
type ListOptions struct {
	cmdutil.ShopDeps
	Settings func() (*config.Settings, error)
	Now      func() time.Time
	Keyword  string
	Pages    cmdutil.PageFlags
}

func newList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{ShopDeps: f.ShopDeps(), Settings: f.Settings, Now: cmdutil.Clock}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List pre-order offers, newest first",
		Long: `List pre-order offers (50 a page), newest first: name, target, status,
schedule, inventory condition and fulfillment. STATUS is the offer's state now:
active, upcoming (before its start), ended (past its end date) or draft; CSV
and workbooks keep the status as sent, with the state beside it. Offer dates
are the shop's time, read in the profile's shop_timezone (UTC when unset).

A product offer's row carries only a sample of its products; "preorder get
ID" shows them all.`,
		Example: `  storectl preorder list
  storectl preorder list --keyword parka
  storectl preorder list --all -o json`,
		Args: cmdutil.NoArgs,
		RunE: cmdutil.ListRunE(opts, &opts.Pages, runF, runList),
	}
	cmd.Flags().StringVar(&opts.Keyword, "keyword", "", "only offers matching this `text`")
	cmdutil.AddPageFlags(cmd, &opts.Pages, "offers")
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	c, err := clockOf(opts.Settings, opts.Now())
	if err != nil {
		return err
	}
	return shopread.PrintList(ctx, opts.ShopDeps, opts.Pages, shopread.List{
		Noun: "offers", Columns: offerColumns(c, false), DataColumns: offerColumns(c, true), Note: sampleNote,
		Fetch: func(c *shop.Client, ctx context.Context, page int) (*shop.Page, error) {
			return c.ListOffers(ctx, page, opts.Keyword)
		}})
}

// offerColumns are the list's columns: STATUS is the state at c's now;
// data (CSV, a workbook) keeps status as sent and adds the state beside it.
func offerColumns(c clock, data bool) []output.Column {
	state := offerColumn("status", "STATUS", c.state)
	if data {
		state = offerColumn("state", "STATE", c.state)
	}
	cols := []output.Column{
		{Key: "id"},
		{Key: "offer_name", Header: "NAME"},
		{Key: "apply_to"},
	}
	if data {
		cols = append(cols, output.Column{Key: "status"})
	}
	return append(cols, state,
		shopTimeColumn(offerColumn("start_date", "START", func(o shop.Offer) string { return output.HumanTime(o.StartDate, time.Local) })),
		shopTimeColumn(offerColumn("end_date", "END", func(o shop.Offer) string {
			if o.EndDate == "" {
				return "no end"
			}
			return output.HumanTime(o.EndDate, time.Local)
		})),
		withDrop(offerColumn("preorder_condition_inventory", "INVENTORY", func(o shop.Offer) string { return orNone(o.ConditionInventory) }), 1),
		withDrop(offerColumn("fulfillment", "FULFILLMENT", fulfillmentSummary), 2),
	)
}

// offerColumn is a column computed from the decoded offer; an offer that
// does not decode shows the server's value at key.
func offerColumn(key, header string, text func(shop.Offer) string) output.Column {
	return output.Column{Key: key, Header: header, Value: func(obj output.Object) string {
		o, err := shop.DecodeOffer(obj.Raw())
		if err != nil {
			return obj.String(key)
		}
		return text(o)
	}}
}

// shopTimeColumn types an offer date as the contract gives it: the shop's
// zone-less wall time.
func shopTimeColumn(c output.Column) output.Column {
	c.Kind = output.KindShopTime
	return c
}

// sampleNote warns that a product offer's row is not all of it.
func sampleNote(items []json.RawMessage) string {
	for _, item := range items {
		if o, err := output.ParseObject(item); err == nil && o.String("apply_to") == "product" {
			return "note: a product offer's row holds only a sample product; `storectl preorder get ID` lists them all"
		}
	}
	return ""
}
