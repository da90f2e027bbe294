package bis

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/fsutil"
	"github.com/storectl/storectl/internal/ids"
	"github.com/storectl/storectl/internal/report"
)

// ReportOptions are the inputs of `bis report`.
type ReportOptions struct {
	cmdutil.MirrorDeps
	Since, Until, By, ProductID, VariantID, SKU, HTML string
	ByVariant                                         bool
	Loc                                               *time.Location
	Now                                               func() time.Time
}

func newReport(f *cmdutil.Factory, runF func(*ReportOptions) error) *cobra.Command {
	opts := &ReportOptions{MirrorDeps: f.MirrorDeps(), Loc: time.Local, Now: cmdutil.Clock}
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Report signups, restock e-mails, opens and clicks (from the mirror)",
		Long: `Report how back in stock works for the store, from the local mirror (after an
incremental sync; --offline sends nothing):

  summary   of the submissions created in the range: signups, pending now,
            sent, opened, clicked, unsubscribed, open and click rates, the
            median and 90th percentile time to notify and to click, and how
            long pending requests have waited;
  periods   per day, week or month: signups, and sends, opens and clicks
            by when they happened;
  products  (variants with --by-variant) most pending first: signups in the
            last 7 and 28 days, signups a day, the trend of the last 7 days
            against the 28-day rate, open and click rates;
  locales   of the detailed submissions.

Opens, clicks, unsubscribes, sends' times and locales come from each
submission's detail: rates are of the sent submissions that have theirs
("63% of 63"), and the report says how many that is; until details exist,
those numbers are unknown (—, null in JSON), never 0.
` + "`mirror sync bis --details`" + ` fetches details within a budget; run from cron
(` + "`--for 50m`" + ` each hour) it keeps them fresh. A --product-id, --variant-id or
--sku that no submission matches is warned about on stderr. Opened and
clicked times are in the shop's time zone, which the API does not name: set
it with ` + "`storectl config set shop_timezone ZONE`" + `.

--since and --until take a date (YYYY-MM-DD, your local midnight; --until's
whole day is in) or an ISO 8601 time. --html FILE writes one self-contained
page with charts (no script, nothing fetched), mode 0600.`,
		Example: `  storectl bis report
  storectl bis report --since 2026-10-01 --by day
  storectl bis report --by-variant --product-id 4410 -o json
  storectl bis report --offline --html restock.html`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.Run(cmd.Context(), opts, runF, runReport)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Since, "since", "", "only submissions created at or after this `date`")
	fl.StringVar(&opts.Until, "until", "", "only submissions created before the end of this `date`")
	fl.StringVar(&opts.By, "by", "week", "periods of a day, week or month")
	fl.StringVar(&opts.ProductID, "product-id", "", "one product `ID`")
	fl.StringVar(&opts.VariantID, "variant-id", "", "one variant `ID`")
	fl.StringVar(&opts.SKU, "sku", "", "one variant SKU (any case)")
	fl.BoolVar(&opts.ByVariant, "by-variant", false, "list variants instead of products")
	fl.StringVar(&opts.HTML, "html", "", "write the report as a self-contained page to `FILE`")
	_ = cmd.RegisterFlagCompletionFunc("by", cobra.FixedCompletions([]string{"day", "week", "month"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func runReport(ctx context.Context, opts *ReportOptions) error {
	ro, err := opts.options()
	if err != nil {
		return err
	}
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	if ro.ShopZone, ro.ShopZoneSet, err = cmdutil.ShopZone(s); err != nil {
		return err
	}
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	db, err := mirrorutil.ReadMirror(ctx, opts.MirrorDeps, "bis")
	if err != nil {
		return err
	}
	defer db.Close()
	rep, err := report.Build(ctx, db, ro)
	if err != nil {
		return mirrorutil.MirrorError(err)
	}
	if rep.MatchedNothing() {
		fmt.Fprintf(opts.IO.ErrOut, "warning: no submission in the mirror is for %s: the report is empty; check it with `storectl bis find %s`%s\n",
			opts.filterText(), opts.filterFlags(), syncHint(s))
	}
	meta := report.Meta{Store: storeName(s), Made: ro.Now, Loc: opts.Loc, Command: "storectl bis report", Help: "storectl bis report --help"}
	if opts.HTML != "" {
		return writeHTMLReport(opts, rep, meta, s.Quiet)
	}
	raw, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	return p.Object(raw, func(w io.Writer) error { return report.WriteText(w, rep, meta, opts.IO.TermWidth) })
}

// options checks the flags before anything is read or sent.
// reportRemedies are the commands that lift the limits the report's notes
// name.
var reportRemedies = report.Remedies{
	FetchDetails: "`storectl mirror sync bis --details`",
	SetShopZone:  "`storectl config set shop_timezone ZONE`",
	FullPass:     "`storectl mirror sync bis --full`",
}

func (opts *ReportOptions) options() (report.Options, error) {
	o := report.Options{Now: opts.Now(), Loc: opts.Loc, SKU: strings.TrimSpace(opts.SKU), ByVariant: opts.ByVariant, Remedies: reportRemedies}
	var err error
	if o.By, err = report.ParsePeriod(opts.By); err != nil {
		return o, exitcode.Usagef("--by %s", err.Error())
	}
	if opts.ProductID != "" {
		if o.ProductID, err = parseInt64("--product-id", opts.ProductID); err != nil {
			return o, err
		}
	}
	if opts.VariantID != "" {
		if o.VariantID, err = parseInt64("--variant-id", opts.VariantID); err != nil {
			return o, err
		}
	}
	if opts.Since != "" {
		if o.Since, err = parseSince(opts.Since, opts.Loc); err != nil {
			return o, err
		}
	}
	if opts.Until != "" {
		if o.Until, err = parseUntil(opts.Until, opts.Loc); err != nil {
			return o, err
		}
	}
	if !o.Since.IsZero() && !o.Until.IsZero() && !o.Since.Before(o.Until) {
		return o, exitcode.Usagef("--since %s is not before --until %s: the range is empty", opts.Since, opts.Until)
	}
	return o, nil
}

func parseInt64(flag, s string) (int64, error) {
	id, err := ids.ParseID(flag, s)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(id, 10, 64)
}

// filterText names the report's filter for a sentence: "product 4410 and
// SKU ab-1".
func (opts *ReportOptions) filterText() string {
	var parts []string
	for _, f := range []struct{ noun, value string }{{"product", opts.ProductID}, {"variant", opts.VariantID}, {"SKU", opts.SKU}} {
		if f.value != "" {
			parts = append(parts, f.noun+" "+strings.TrimSpace(f.value))
		}
	}
	return strings.Join(parts, " and ")
}

// filterFlags are the filter's flags as bis find takes them.
func (opts *ReportOptions) filterFlags() string {
	var flags []string
	for _, f := range []struct{ name, value string }{{"--product-id", opts.ProductID}, {"--variant-id", opts.VariantID}, {"--sku", opts.SKU}} {
		if f.value != "" {
			flags = append(flags, f.name+" "+strings.TrimSpace(f.value))
		}
	}
	return strings.Join(flags, " ")
}

// syncHint is, for a report answered offline, the sync that may find the
// submissions; nothing otherwise (the mirror was just brought up to date).
func syncHint(s *config.Settings) string {
	if s.Offline {
		return ", or bring the mirror up to date (`storectl mirror sync bis`)"
	}
	return ""
}

// parseUntil reads --until: a date means up to the end of that day.
func parseUntil(s string, loc *time.Location) (time.Time, error) {
	if d, err := time.ParseInLocation("2006-01-02", strings.TrimSpace(s), loc); err == nil {
		return d.AddDate(0, 0, 1), nil
	}
	t, err := parseSince(s, loc)
	if err != nil {
		return t, exitcode.Usagef("--until %q is not a date: use YYYY-MM-DD or an ISO 8601 time such as 2026-11-30T18:00:00Z", s)
	}
	return t, nil
}

// storeName is the store as the user knows it: the profile and its URL.
func storeName(s *config.Settings) string {
	switch {
	case s.Sandbox:
		return s.Profile + " (sandbox)"
	case s.BaseURL != "":
		return s.Profile + " (" + s.BaseURL + ")"
	}
	return s.Profile
}

// writeHTMLReport writes the page atomically, mode 0600, and says where.
func writeHTMLReport(opts *ReportOptions, rep *report.Report, meta report.Meta, quiet bool) error {
	var b bytes.Buffer
	if err := report.WriteHTML(&b, rep, meta); err != nil {
		return err
	}
	if err := fsutil.WriteFileAtomic(opts.HTML, b.Bytes(), 0o600); err != nil {
		return fmt.Errorf("--html: %w", err)
	}
	if !quiet {
		fmt.Fprintf(opts.IO.ErrOut, "wrote the report to %s\n", opts.HTML)
	}
	return nil
}
