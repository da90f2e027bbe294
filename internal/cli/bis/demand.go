package bis

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
)

// DemandOptions are the inputs of `bis demand`.
type DemandOptions struct {
	cmdutil.MirrorDeps
	Status string
	By     string
	Top    int
}

func newDemand(f *cmdutil.Factory, runF func(*DemandOptions) error) *cobra.Command {
	opts := &DemandOptions{MirrorDeps: f.MirrorDeps()}
	cmd := &cobra.Command{
		Use:   "demand",
		Short: "Show which products customers wait for most (from the mirror)",
		Long: `Count who waits for what: per product (or per variant with --by variant), the
pending requests (restock e-mail not sent yet), the sent ones, and the newest
and oldest request, most pending first: the products to restock first. In a
table a bar shows each row's pending demand against the largest.

--status pending lists only what has pending requests; --status sent only what
has sent ones, ordered by them. It answers from the local mirror after an
incremental sync (--offline: nothing sent). json and csv give product_id,
product_title (with --by variant also variant_id, variant_title, sku),
pending, sent, newest, oldest. A variant's SKU is the one most of its
submissions carry (the newest of equally common ones; submissions without
one are not counted), its titles the newest submission's.`,
		Example: `  storectl bis demand --top 10
  storectl bis demand --by variant --status pending -o csv > restock.csv`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.Run(cmd.Context(), opts, runF, runDemand)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Status, "status", "", "only products with pending, or sent, requests")
	fl.StringVar(&opts.By, "by", "product", "count per product or per variant")
	fl.IntVar(&opts.Top, "top", 0, "show only the first `N` rows (0: all)")
	completeStatus(cmd)
	_ = cmd.RegisterFlagCompletionFunc("by", cobra.FixedCompletions([]string{"product", "variant"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func runDemand(ctx context.Context, opts *DemandOptions) error {
	filter, err := opts.filter()
	if err != nil {
		return err
	}
	return mirrorutil.PrintFromMirror(ctx, opts.MirrorDeps, mirrorutil.MirrorList{Groups: []string{"bis"},
		Query: func(ctx context.Context, db *mirror.DB) ([]json.RawMessage, error) { return db.Demand(ctx, filter) },
		Columns: func(p *output.Printer, items []json.RawMessage) []output.Column {
			if p.Format() != output.Table {
				return demandDataColumns(items)
			}
			return demandColumns(filter, items)
		},
		Empty: "no submissions in the mirror", Sheet: "demand"})
}

func (opts *DemandOptions) filter() (mirror.DemandFilter, error) {
	f := mirror.DemandFilter{Top: opts.Top}
	switch strings.ToLower(opts.By) {
	case "product", "":
	case "variant":
		f.ByVariant = true
	default:
		return f, cmdutil.BadValue("--by", opts.By, []string{"product", "variant"}, "use product or variant")
	}
	switch s := strings.ToLower(opts.Status); s {
	case "", "pending", "sent":
		f.Status = s
	default:
		return f, cmdutil.BadValue("--status", opts.Status, []string{"pending", "sent"}, "use pending or sent")
	}
	if opts.Top < 0 {
		return f, exitcode.Usagef("--top must be 0 (all) or more, not %d", opts.Top)
	}
	return f, nil
}

// barWidth is the longest demand bar, in cells.
const barWidth = 20

// demandColumns are the table's: titles, counts and a bar of pending
// requests scaled to the largest.
func demandColumns(f mirror.DemandFilter, items []json.RawMessage) []output.Column {
	key := "pending"
	if f.Status == "sent" {
		key = "sent"
	}
	most := 0
	for _, raw := range items {
		if o, err := output.ParseObject(raw); err == nil {
			most = max(most, atoi(o.String(key)))
		}
	}
	// The answer is who waits for what: on a narrow terminal the oldest
	// and newest dates, the bar, the other count (and per variant the
	// product id and SKU) give way first, in that order.
	cols := []output.Column{{Key: "product_id", Header: "PRODUCT ID"}, {Key: "product_title", Header: "PRODUCT"}}
	if f.ByVariant {
		cols[0].Drop = 6
		cols = append(cols, output.Column{Key: "variant_id", Header: "VARIANT ID"}, output.Column{Key: "variant_title", Header: "VARIANT"},
			output.Column{Key: "sku", Header: "SKU", Drop: 5})
	}
	other := "sent"
	if key == "sent" {
		other = "pending"
	}
	newest, oldest := output.HumanTimeColumn("newest", "NEWEST", time.Local), output.HumanTimeColumn("oldest", "OLDEST", time.Local)
	newest.Drop, oldest.Drop = 3, 1
	cols = append(cols, output.Column{Key: "pending"}, output.Column{Key: "sent"},
		output.Column{Key: "bar", Header: "DEMAND", Drop: 2, Value: func(o output.Object) string { return bar(atoi(o.String(key)), most) }},
		newest, oldest)
	for i := range cols {
		if cols[i].Key == other {
			cols[i].Drop = 4
		}
	}
	return cols
}

// demandDataColumns are the items' own keys (what csv and json hold),
// with the newest and oldest submission's instants typed as such for a
// workbook.
func demandDataColumns(items []json.RawMessage) []output.Column {
	if len(items) == 0 {
		return nil
	}
	first, err := output.ParseObject(items[0])
	if err != nil {
		return nil
	}
	var cols []output.Column
	for _, k := range first.Keys() {
		c := output.Column{Key: k}
		if k == "newest" || k == "oldest" {
			c.Kind = output.KindTime
		}
		cols = append(cols, c)
	}
	return cols
}

func bar(n, most int) string {
	if most <= 0 || n <= 0 {
		return ""
	}
	return strings.Repeat("█", max(1, n*barWidth/most))
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// completeStatus completes --status with a submission's two states.
func completeStatus(cmd *cobra.Command) {
	_ = cmd.RegisterFlagCompletionFunc("status", cobra.FixedCompletions([]string{"pending", "sent"}, cobra.ShellCompDirectiveNoFileComp))
}
