package preorder

import (
	"context"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/flex"
	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/shopread"
	"github.com/storectl/storectl/internal/output"
)

// ProductsOptions are the inputs of `preorder products`.
type ProductsOptions struct {
	cmdutil.MirrorDeps
	Now       func() time.Time
	Keyword   string
	Pages     cmdutil.PageFlags
	VariantID string
	ProductID string
}

func newProducts(f *cmdutil.Factory, runF func(*ProductsOptions) error) *cobra.Command {
	opts := &ProductsOptions{MirrorDeps: f.MirrorDeps(), Now: cmdutil.Clock}
	cmd := &cobra.Command{
		Use:   "products",
		Short: "Show which offer each variant gets, and why",
		Long: `List variants in pre-order offers (10 a page) with the offer each one gets.
OFFER and NAME are the winning offer; WHY explains the choice from what
the row and the offer list show: a manual assignment, the most specific offer
(product, then collection, then all), or, between offers of the same kind, the
most recently updated one. When the winning offer is not running now, WHY says
so first, and which offer would win meanwhile ("ended 2026-12-01, now 3106
would win (all-products offer)"). When the server's choice does not follow the
order, WHY says so ("server's pick, though collection offer 808 covers it");
what the offers cannot show (an offer missing from the list) is named as
unknown. OTHER OFFERS are the offers it beat, with those not running marked
(draft, upcoming, ended); SOLD shows units sold against the limit. Offer dates
are the shop's time, read in the profile's shop_timezone (UTC when unset). In
a table or CSV the offer list is read once for the names, kinds and dates. On
a narrow terminal the other columns give way to WHY and NAME (a note on stderr
names those left out).

--keyword searches product titles, SKUs and similar.

--variant-id and --product-id answer which offer wins for that variant (or
each variant of that product), and why, from the local mirror: the API can
only be searched by keyword, so finding one variant means reading up to every
page. The mirror is brought up to date first with an incremental sync of the
pre-order lists; --offline sends nothing and says how old the answer is.`,
		Example: `  storectl preorder products --keyword boots
  storectl preorder products --all -o csv > priorities.csv
  storectl preorder products --variant-id 45001234560768`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.VariantID != "" || opts.ProductID != "" {
				if err := opts.checkMirrorFlags(cmd); err != nil {
					return err
				}
				return cmdutil.Run(cmd.Context(), opts, runF, runProductsFromMirror)
			}
			return cmdutil.ListRunE(opts, &opts.Pages, runF, runProducts)(cmd, args)
		},
	}
	cmd.Flags().StringVar(&opts.Keyword, "keyword", "", "only variants of products matching this `text`")
	cmd.Flags().StringVar(&opts.VariantID, "variant-id", "", "which offer wins for this variant `ID` (from the mirror)")
	cmd.Flags().StringVar(&opts.ProductID, "product-id", "", "which offer wins for each variant of this product `ID` (from the mirror)")
	cmdutil.AddPageFlags(cmd, &opts.Pages, "rows")
	return cmd
}

func runProducts(ctx context.Context, opts *ProductsOptions) error {
	cols := priorityColumns(nil)
	if p, err := opts.Printer(); err == nil && (p.IsTable() || p.Format() == output.CSV) {
		// WHY states only what the offers show: one look at the offer list
		// (50 a page, usually one request) gives their names, kinds, dates
		// and order by age. JSON prints the rows as sent and needs none of it.
		c, err := clockOf(opts.Settings, opts.Now())
		if err != nil {
			return err
		}
		offers, err := loadOffers(ctx, opts.ShopDeps, c)
		if err != nil {
			return err
		}
		cols = priorityColumns(offers)
	}
	return shopread.PrintList(ctx, opts.ShopDeps, opts.Pages, shopread.List{
		Noun: "variants in pre-order offers", Sheet: "priority products", Columns: cols,
		Fetch: func(c *shop.Client, ctx context.Context, page int) (*shop.Page, error) {
			return c.ListPriorityProducts(ctx, page, opts.Keyword)
		}})
}

func loadOffers(ctx context.Context, d cmdutil.ShopDeps, at clock) (map[flex.ID]offerInfo, error) {
	c, err := d.ShopClient()
	if err != nil {
		return nil, err
	}
	d.Progress().Update("reading offer names")
	offers := map[flex.ID]offerInfo{}
	err = shop.EachPage(ctx, func(ctx context.Context, page int) (*shop.Page, error) {
		return c.ListOffers(ctx, page, "")
	}, func(p *shop.Page) error {
		list, err := shop.DecodeItems(p, shop.DecodeOffer)
		if err != nil {
			return err
		}
		for _, o := range list {
			offers[o.ID] = newOfferInfo(o, len(offers), at)
		}
		return nil
	})
	return offers, err
}

// priorityColumns are the table's columns; with the offers known, the
// OFFER column names the winner and WHY can state every rule that decided.
func priorityColumns(offers map[flex.ID]offerInfo) []output.Column {
	// WHY is the answer, and NAME the winner's title: on a narrow terminal
	// the date, the end quantity, the other offers, units sold and the
	// row's id and product give way to them, in that order; the name is cut
	// to nameMin before WHY is cut.
	updated := shopTimeColumn(output.HumanTimeColumn("updated_at", "UPDATED", time.Local))
	updated.Drop = 1
	return []output.Column{
		{Key: "id", Drop: 5},
		{Key: "product_id", Header: "PRODUCT", Drop: 6},
		{Key: "variant_id", Header: "VARIANT"},
		rowColumn("priority_profile_id", "OFFER", func(r shop.PriorityRow) string { return idOr(r.Winner()) }),
		withMin(rowColumn("offer_name", "NAME", func(r shop.PriorityRow) string { return offerName(r.Winner(), offers) }), nameMin),
		withAnswer(rowColumn("why", "WHY", func(r shop.PriorityRow) string { return why(r, offers) })),
		withDrop(rowColumn("other_offers", "OTHER OFFERS", func(r shop.PriorityRow) string { return otherOffers(r, offers) }), 3),
		withDrop(rowColumn("sold", "SOLD/LIMIT", sold), 4),
		withDrop(rowColumn("end_quantity", "END QTY", func(r shop.PriorityRow) string { return intOr(r.EndQuantity, none) }), 2),
		updated,
	}
}

func withDrop(c output.Column, order int) output.Column { c.Drop = order; return c }

func withMin(c output.Column, width int) output.Column { c.Min = width; return c }

// nameMin keeps enough of an offer's name to know it ("Outerwear Pre-se…")
// on an 80-column terminal, where WHY keeps the rest (about 40).
const nameMin = 16

func withAnswer(c output.Column) output.Column { c.Answer = true; return c }

func idOr(id flex.ID) string {
	if id == "" {
		return none
	}
	return string(id)
}

// offerName is the winning offer's name, when the offer list has it.
func offerName(id flex.ID, offers map[flex.ID]offerInfo) string {
	if o, ok := offers[id]; ok && o.name != "" {
		return o.name
	}
	return none
}

func rowColumn(key, header string, text func(shop.PriorityRow) string) output.Column {
	return output.Column{Key: key, Header: header, Value: func(obj output.Object) string {
		r, err := shop.DecodePriorityRow(obj.Raw())
		if err != nil {
			return obj.String(key)
		}
		return text(r)
	}}
}

// sold is units sold against the limit: "12 / 25", "3 / unlimited".
func sold(r shop.PriorityRow) string {
	return intOr(r.UnitsSold, none) + " / " + intOr(r.Limit, "unlimited")
}

func intOr(i flex.Int, null string) string {
	if !i.Valid {
		return null
	}
	return strconv.FormatInt(i.Value, 10)
}
