package preorder

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/flex"
	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/output"
)

// ProductsOptions are the inputs of `preorder products`.
type ProductsOptions struct {
	cmdutil.ShopDeps
	Mirror    cmdutil.MirrorDeps
	Keyword   string
	Pages     cmdutil.PageFlags
	VariantID string
	ProductID string
}

func newProducts(f *cmdutil.Factory, runF func(*ProductsOptions) error) *cobra.Command {
	opts := &ProductsOptions{ShopDeps: f.ShopDeps(), Mirror: f.MirrorDeps()}
	cmd := &cobra.Command{
		Use:   "products",
		Short: "Show which offer each variant gets, and why",
		Long: `List variants in pre-order offers (10 a page) with the offer each one gets.
The OFFER column names the winning offer; WHY explains the choice: a manual
assignment, the most specific offer (product, then collection, then all), or,
between offers of the same kind, the most recently updated one; then the other
offers holding the variant that it beat. SOLD shows units sold against the
limit. In a table the offer list is read once for the names.

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
	if p, err := opts.Printer(); err == nil && p.IsTable() {
		// People read offer names, not ids: one look at the offer list (50
		// a page, usually one request) names them and orders them by age.
		offers, err := loadOffers(ctx, opts.ShopDeps)
		if err != nil {
			return err
		}
		cols = priorityColumns(offers)
	}
	return cmdutil.PrintList(ctx, opts.ShopDeps, opts.Pages, cmdutil.ShopList{
		Noun: "variants in pre-order offers", Sheet: "priority products", Columns: cols,
		Fetch: func(c *shop.Client, ctx context.Context, page int) (*shop.Page, error) {
			return c.ListPriorityProducts(ctx, page, opts.Keyword)
		}})
}

// offerInfo is what the table needs of an offer: its name and apply type.
type offerInfo struct {
	name    string
	applyTo string
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
			offers[o.ID] = offerInfo{name: o.Name, applyTo: o.ApplyTo}
		}
		return nil
	})
	return offers, err
}

// priorityColumns are the table's columns; with the offers known, the
// OFFER column names the winner and WHY can state every rule that decided.
func priorityColumns(offers map[flex.ID]offerInfo) []output.Column {
	return []output.Column{
		{Key: "id"},
		{Key: "product_id", Header: "PRODUCT"},
		{Key: "variant_id", Header: "VARIANT"},
		rowColumn("priority_profile_id", "OFFER", func(r shop.PriorityRow) string { return offerName(r.Winner(), offers) }),
		rowColumn("why", "WHY", func(r shop.PriorityRow) string { return why(r, offers) }),
		rowColumn("sold", "SOLD/LIMIT", sold),
		rowColumn("end_quantity", "END QTY", func(r shop.PriorityRow) string { return intOr(r.EndQuantity, none) }),
		shopTimeColumn(output.HumanTimeColumn("updated_at", "UPDATED", time.Local)),
	}
}

func offerName(id flex.ID, offers map[flex.ID]offerInfo) string {
	if id == "" {
		return none
	}
	if o, ok := offers[id]; ok && o.name != "" {
		return string(id) + " " + o.name
	}
	return string(id)
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

// winReasons say why an offer of each apply type wins when nobody assigned
// one by hand: product beats collection beats all.
var winReasons = map[string]string{
	"product":    "product offer (most specific)",
	"collection": "collection offer (no product offer)",
	"all":        "all-products offer (no product or collection offer)",
}

// why explains the winner in words: the rule that picked it and the other
// offers (from all_profile_ids) it beat. When a beaten offer has the same
// apply type, the third rule decided: the most recently updated offer wins.
func why(r shop.PriorityRow, offers map[flex.ID]offerInfo) string {
	reason := r.PriorityType + " offer"
	if known, ok := winReasons[r.PriorityType]; ok {
		reason = known
	}
	var beaten []string
	tie := false
	for _, id := range r.AllProfileIDs {
		if id == r.Winner() {
			continue
		}
		beaten = append(beaten, string(id))
		if o, ok := offers[id]; ok && o.applyTo == r.PriorityType {
			tie = true
		}
	}
	switch {
	case r.IsManualAssign.Value:
		reason = "manual assignment (" + orNone(r.PriorityType) + " offer)"
	case tie:
		reason = "newest " + orNone(r.PriorityType) + " offer (latest updated_at)"
	}
	if len(beaten) == 0 {
		return reason + " · its only offer"
	}
	return reason + " · beat " + strings.Join(beaten, ", ")
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
