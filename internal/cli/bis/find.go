package bis

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/ids"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
)

// FindOptions are the inputs of `bis find`.
type FindOptions struct {
	cmdutil.MirrorDeps
	Email, Phone, ProductID, VariantID, SKU, Status, Since string
	Loc                                                    *time.Location
}

func newFind(f *cmdutil.Factory, runF func(*FindOptions) error) *cobra.Command {
	opts := &FindOptions{MirrorDeps: f.MirrorDeps(), Loc: time.Local}
	cmd := &cobra.Command{
		Use:   "find",
		Short: "Find submissions by customer, product or status (from the mirror)",
		Long: `Find the submissions that match every filter given, newest first. The shop API
cannot filter its list, so this answers from the local mirror: it first brings
the mirror up to date with an incremental sync (the first one reads every
page: slow on a big store), then searches it in milliseconds. --offline sends
nothing and says how old the answer is.

--email matches in any case; * stands for any text (--email '*@example.com').
--phone compares digits only, so +1 (480) 555-0172 finds +14805550172, and a
number given without its country code finds it too. --since takes a date
(YYYY-MM-DD, your local midnight) or an ISO 8601 time.`,
		Example: `  storectl bis find --email zoe@example.com
  storectl bis find --phone '480 555 0172' --offline
  storectl bis find --variant-id 4410 --status pending -o csv > waiting.csv`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmdutil.Run(cmd.Context(), opts, runF, runFind) },
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Email, "email", "", "customer e-mail (any case; * for any text)")
	fl.StringVar(&opts.Phone, "phone", "", "customer phone (digits compared)")
	fl.StringVar(&opts.ProductID, "product-id", "", "product `ID`")
	fl.StringVar(&opts.VariantID, "variant-id", "", "variant `ID`")
	fl.StringVar(&opts.SKU, "sku", "", "variant SKU (any case)")
	fl.StringVar(&opts.Status, "status", "", "pending (restock e-mail not sent) or sent")
	fl.StringVar(&opts.Since, "since", "", "only submissions created at or after this `date`")
	completeStatus(cmd)
	return cmd
}

func runFind(ctx context.Context, opts *FindOptions) error {
	filter, err := opts.filter()
	if err != nil {
		return err
	}
	return mirrorutil.PrintFromMirror(ctx, opts.MirrorDeps, mirrorutil.MirrorList{Groups: []string{"bis"},
		Query: func(ctx context.Context, db *mirror.DB) ([]json.RawMessage, error) { return db.Find(ctx, filter) },
		Columns: func(p *output.Printer, _ []json.RawMessage) []output.Column {
			return listColumns(p.Format() == output.Table)
		},
		Footer: func(n int) string { return output.Plural(n, "submission") },
		Empty:  "no submissions match", Sheet: "submissions"})
}

// filter checks the flags before anything is read or sent.
func (opts *FindOptions) filter() (mirror.FindFilter, error) {
	f := mirror.FindFilter{Email: strings.TrimSpace(opts.Email), Phone: opts.Phone, SKU: strings.TrimSpace(opts.SKU)}
	var err error
	if opts.Phone != "" && len(mirror.Digits(opts.Phone)) < 4 {
		return f, exitcode.Usagef("--phone %q has too few digits to find anyone by", opts.Phone)
	}
	if opts.ProductID != "" {
		if f.ProductID, err = ids.ParseID("--product-id", opts.ProductID); err != nil {
			return f, err
		}
	}
	if opts.VariantID != "" {
		if f.VariantID, err = ids.ParseID("--variant-id", opts.VariantID); err != nil {
			return f, err
		}
	}
	if f.Status, err = statusFilter(opts.Status); err != nil {
		return f, err
	}
	if opts.Since != "" {
		if f.Since, err = parseSince(opts.Since, opts.Loc); err != nil {
			return f, err
		}
	}
	return f, nil
}

func statusFilter(s string) (*int, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "":
		return nil, nil
	case "pending", "0":
		v := 0
		return &v, nil
	case "sent", "1":
		v := 1
		return &v, nil
	}
	return nil, cmdutil.BadValue("--status", s, []string{"pending", "sent"}, "use pending (restock e-mail not sent) or sent")
}

func parseSince(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.ParseInLocation("2006-01-02", s, loc); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, exitcode.Usagef("--since %q is not a date: use YYYY-MM-DD or an ISO 8601 time such as 2026-11-01T09:00:00Z", s)
}
