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
	Keyword   string
	Pages     cmdutil.PageFlags
	VariantID string
	ProductID string
}

func newProducts(f *cmdutil.Factory, runF func(*ProductsOptions) error) *cobra.Command {
	opts := &ProductsOptions{MirrorDeps: f.MirrorDeps()}
	cmd := &cobra.Command{
		Use:   "products",
		Short: "Show which offer each variant gets, and why",
		Long: `List variants in pre-order offers (10 a page) with the offer each one gets.
OFFER and NAME are the winning offer; WHY explains the choice from what
the row and the offer list show: a manual assignment, the most specific offer
(product, then collection, then all), or, between offers of the same kind, the
most recently updated one; then the other offers holding the variant that it
beat. When the server's choice does not follow that order, WHY says so ("the
server chose all-products offer 806 although collection offer 808 covers this
variant"); what the offers cannot show (an offer missing from the list) is
named as unknown. SOLD shows units sold against the limit. In a table or CSV
the offer list is read once for the names and kinds. On a narrow terminal the
other columns give way to WHY (a note on stderr names those left out).

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
		// (50 a page, usually one request) gives their names, kinds and
		// order by age. JSON prints the rows as sent and needs none of it.
		offers, err := loadOffers(ctx, opts.ShopDeps)
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

func loadOffers(ctx context.Context, d cmdutil.ShopDeps) (map[flex.ID]offerInfo, error) {
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
			offers[o.ID] = newOfferInfo(o, len(offers))
		}
		return nil
	})
	return offers, err
}

// priorityColumns are the table's columns; with the offers known, the
// OFFER column names the winner and WHY can state every rule that decided.
func priorityColumns(offers map[flex.ID]offerInfo) []output.Column {
	// WHY is the answer: on a narrow terminal the date, the end quantity,
	// the offer's name, units sold and the row's product and id give way to
	// it, in that order.
	updated := shopTimeColumn(output.HumanTimeColumn("updated_at", "UPDATED", time.Local))
	updated.Drop = 1
	return []output.Column{
		{Key: "id", Drop: 6},
		{Key: "product_id", Header: "PRODUCT", Drop: 5},
		{Key: "variant_id", Header: "VARIANT"},
		rowColumn("priority_profile_id", "OFFER", func(r shop.PriorityRow) string { return idOr(r.Winner()) }),
		withDrop(rowColumn("offer_name", "NAME", func(r shop.PriorityRow) string { return offerName(r.Winner(), offers) }), 3),
		withAnswer(rowColumn("why", "WHY", func(r shop.PriorityRow) string { return why(r, offers) })),
		withDrop(rowColumn("sold", "SOLD/LIMIT", sold), 4),
		withDrop(rowColumn("end_quantity", "END QTY", func(r shop.PriorityRow) string { return intOr(r.EndQuantity, none) }), 2),
		updated,
	}
}

func withDrop(c output.Column, order int) output.Column { c.Drop = order; return c }

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
