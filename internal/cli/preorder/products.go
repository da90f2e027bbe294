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
	Keyword string
	Pages   cmdutil.PageFlags
}

func newProducts(f *cmdutil.Factory, runF func(*ProductsOptions) error) *cobra.Command {
	opts := &ProductsOptions{ShopDeps: f.ShopDeps()}
	cmd := &cobra.Command{
		Use:   "products",
		Short: "Show which offer each variant gets, and why",
		Long: `List variants in pre-order offers (10 a page) with the offer each one gets.
The WHY column explains the choice: a manual assignment, or the most specific
offer (product, then collection, then all), and the other offers holding the
variant that it beat. SOLD shows units sold against the limit.

--keyword searches product titles, SKUs and similar.`,
		Example: `  storectl preorder products --keyword boots
  storectl preorder products --all -o csv > priorities.csv`,
		Args: cmdutil.NoArgs,
		RunE: cmdutil.ListRunE(opts, &opts.Pages, runF, runProducts),
	}
	cmd.Flags().StringVar(&opts.Keyword, "keyword", "", "only variants of products matching this `text`")
	cmdutil.AddPageFlags(cmd, &opts.Pages, "rows")
	return cmd
}

func runProducts(ctx context.Context, opts *ProductsOptions) error {
	return cmdutil.PrintList(ctx, opts.ShopDeps, opts.Pages, cmdutil.ShopList{
		Noun: "variants in pre-order offers", Columns: priorityColumns,
		Fetch: func(c *shop.Client, ctx context.Context, page int) (*shop.Page, error) {
			return c.ListPriorityProducts(ctx, page, opts.Keyword)
		}})
}

var priorityColumns = []output.Column{
	{Key: "id"},
	{Key: "product_id", Header: "PRODUCT"},
	{Key: "variant_id", Header: "VARIANT"},
	rowColumn("priority_profile_id", "OFFER", func(r shop.PriorityRow) string { return orNone(string(r.Winner())) }),
	rowColumn("why", "WHY", why),
	rowColumn("sold", "SOLD/LIMIT", sold),
	rowColumn("end_quantity", "END QTY", func(r shop.PriorityRow) string { return intOr(r.EndQuantity, none) }),
	output.HumanTimeColumn("updated_at", "UPDATED", time.Local),
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
// one by hand: product beats collection beats all, the newest breaking ties.
var winReasons = map[string]string{
	"product":    "product offer (most specific)",
	"collection": "collection offer (no product offer)",
	"all":        "all-products offer (no product or collection offer)",
}

// why explains the winner in words: the rule that picked it and the other
// offers (from all_profile_ids) it beat.
func why(r shop.PriorityRow) string {
	reason := r.PriorityType + " offer"
	if known, ok := winReasons[r.PriorityType]; ok {
		reason = known
	}
	if r.IsManualAssign.Value {
		reason = "manual assignment (" + orNone(r.PriorityType) + " offer)"
	}
	var beaten []string
	for _, id := range r.AllProfileIDs {
		if id != r.Winner() {
			beaten = append(beaten, string(id))
		}
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
