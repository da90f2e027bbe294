package bis

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bisform"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/completion"
	"github.com/storectl/storectl/internal/cli/shopread"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// GetOptions are the inputs of `bis get`.
type GetOptions struct {
	cmdutil.ShopDeps
	// Forms labels answers the submission's keyLabel leaves unlabelled,
	// from the cached form (never fetched for this).
	Forms *formStore
	ID    string
}

func newGet(f *cmdutil.Factory, forms *formStore, runF func(*GetOptions) error) *cobra.Command {
	opts := &GetOptions{ShopDeps: f.ShopDeps(), Forms: forms}
	return &cobra.Command{
		Use:   "get ID",
		Short: "Show one submission with its form answers",
		Long: `Show one back-in-stock submission: the customer, the variant, whether the
restock e-mail was sent, opened and clicked, and the answers to the form's
custom fields, labelled as stored with the submission (content.keyLabel),
else by the form's labels as bis export heads them (the form is fetched
once and cached when needed).

-o json prints the submission exactly as the server sent it (content stays
the JSON-encoded string the API uses).`,
		Example: `  storectl bis get 10321
  storectl bis get 10321 -o json --jq .content`,
		Args:              submissionID.Args(),
		ValidArgsFunction: completion.OneID(f, completion.Submissions),
		RunE:              cmdutil.GetRunE(opts, &opts.ID, runF, runGet),
	}
}

func runGet(ctx context.Context, opts *GetOptions) error {
	return shopread.PrintByID(ctx, opts.ShopDeps, submissionID, opts.ID, (*shop.Client).GetSubmission,
		func(res *shop.SubmissionResult) (json.RawMessage, shopread.Render) {
			return res.Raw, func(w io.Writer) error {
				return renderSubmissionWith(w, opts.IO, res.Raw, labelsFor(ctx, opts.Forms, res.Raw))
			}
		})
}

// labelsFor is the form that labels a submission's answers its keyLabel
// leaves unlabelled, as an export heads its columns: the cached form, else,
// when some answer needs it, the form fetched (and cached) now. Without it
// (the form cannot be read) the answers keep their field ids.
func labelsFor(ctx context.Context, forms *formStore, raw json.RawMessage) *bisform.Form {
	if forms == nil {
		return nil
	}
	if cached := forms.Cached(); cached != nil {
		return cached.Form
	}
	o, err := output.ParseObject(raw)
	if err != nil {
		return nil
	}
	content, ok := o.Get("content")
	if !ok {
		return nil
	}
	c, err := bisform.DecodeContent(content)
	if err != nil || !slices.ContainsFunc(c.Entries, func(e bisform.Entry) bool { return !e.Labeled }) {
		return nil
	}
	if loaded, err := forms.Load(ctx, false); err == nil {
		return loaded.Form
	}
	return nil
}

var submissionID = cmdutil.IDArg{Noun: "submission", List: "storectl bis list"}

// renderSubmission is the human view of a submission (get and create).
func renderSubmission(w io.Writer, ios *iostreams.IOStreams, raw json.RawMessage) error {
	return renderSubmissionWith(w, ios, raw, nil)
}

// renderSubmissionWith labels answers keyLabel leaves unlabelled from form.
func renderSubmissionWith(w io.Writer, ios *iostreams.IOStreams, raw json.RawMessage, form *bisform.Form) error {
	o, err := output.ParseObject(raw)
	if err != nil {
		return err
	}
	str := o.String
	withID := func(title, key string) string {
		if t := str(title); t != "" {
			return fmt.Sprintf("%s (%s)", t, str(key))
		}
		return str(key)
	}
	pairs := [][2]string{
		{"ID", str("id")},
		{"Email", str("customer_email")},
		{"Phone", str("customer_phone")},
		{"Product", withID("product_title", "product_id")},
		{"Variant", withID("variant_title", "variant_id")},
		{"SKU", str("sku")},
	}
	if _, ok := o.Get("inventory_id"); ok {
		pairs = append(pairs, [2]string{"Inventory ID", str("inventory_id")})
	}
	pairs = append(pairs, [2]string{"Status", statusText(str("status"))})
	if _, ok := o.Get("last_sent"); ok {
		pairs = append(pairs,
			[2]string{"Last sent", timeOr(str("last_sent"), "never")},
			[2]string{"Opened", eventText(str("opened"), time.Local)},
			[2]string{"Clicked", eventText(str("clicked"), time.Local)},
			[2]string{"Unsubscribed", yesNo("unsubscribe")(o)},
			[2]string{"Locale", str("locale")},
			[2]string{"Note", str("note")},
		)
	}
	pairs = append(pairs, [2]string{"Created", output.HumanTime(str("created_at"), time.Local)},
		[2]string{"Updated", output.HumanTime(str("updated_at"), time.Local)})
	if err := output.RenderSheet(w, ios, pairs); err != nil {
		return err
	}
	contentRaw, ok := o.Get("content")
	if !ok {
		return nil
	}
	return renderContent(w, ios, contentRaw, form)
}

// renderContent shows the form answers, labelled from keyLabel.
func renderContent(w io.Writer, ios *iostreams.IOStreams, raw json.RawMessage, form *bisform.Form) error {
	c, err := bisform.DecodeContent(raw)
	if err != nil {
		fmt.Fprintln(w)
		return output.RenderSheet(w, ios, [][2]string{{"Content", string(raw)}})
	}
	c.Relabel(form)
	if len(c.Entries) == 0 && c.Source == "" {
		return nil
	}
	pairs := make([][2]string, 0, len(c.Entries)+1)
	for _, e := range c.Entries {
		pairs = append(pairs, [2]string{e.Label, e.Value})
	}
	if c.Source != "" {
		pairs = append(pairs, [2]string{"Source", c.Source})
	}
	fmt.Fprintln(w, "\nForm answers")
	return output.RenderSheet(w, ios, pairs)
}

// statusText reads the submission status (0 pending, 1 sent).
func statusText(s string) string {
	switch s {
	case "0":
		return "pending (restock e-mail not sent)"
	case "1":
		return "sent"
	}
	return s
}

// eventText shows an e-mail event: 0 (not yet) or when it happened.
func eventText(s string, loc *time.Location) string {
	if s == "" || s == "0" {
		return "no"
	}
	return output.HumanTime(s, loc)
}

// timeOr shows a datetime that may be null (last_sent): fallback then.
func timeOr(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return output.HumanTime(s, time.Local)
}
