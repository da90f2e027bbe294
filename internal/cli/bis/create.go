package bis

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bisform"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// CreateOptions are the inputs of `bis create`.
type CreateOptions struct {
	cmdutil.BulkDeps
	Forms *formStore

	Input       bisform.Input // the core flags; Fields come from FieldArgs
	FieldArgs   []string      // --field ID_OR_LABEL=VALUE
	Interactive bool
	DryRun      bool

	FromFile string
	Bulk     cmdutil.BulkFlags
}

func newCreate(f *cmdutil.Factory, forms *formStore, runF func(*CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{BulkDeps: f.BulkDeps(), Forms: forms}
	cmd := &cobra.Command{
		Use:   "create",
		Short: "Register a customer for a variant, or many from a file",
		Long: `Register a customer to be told when a variant is back in stock.

The submission is built from the store's form (cached; see ` + "`bis form`" + `): --email,
--product-id/--variant-id and --phone are the form's core fields, and every
custom field is given with --field ID_OR_LABEL=VALUE, naming the field by its
id or, without regard to case, its label. content.keyLabel is filled in from
the form's labels. Select and radio values must be one of the options, a
checkbox takes a comma-separated list (or --field repeated), acceptTerms
takes true.

Everything is checked locally first, with the server's own messages: on any
problem nothing is sent and the exit code is 2. --dry-run prints the exact
request body instead of sending it.

The server answers whether the submission is new or the customer was
already registered for the variant (then it is updated with the values sent);
the message on stderr says which.

With --from-file, one submission per row of a CSV file (header row), a JSON
array of objects, NDJSON or a YAML list. Columns are the flag names (email,
product-id, variant-id, phone, locale, note) and field ids or labels. Every row
is checked before the first request; a failing row does not stop the others
(exit 5 when some failed). A journal records each row as the run goes
(--report FILE names it; otherwise it is kept in storectl's state directory):
after an interruption, --resume continues without sending a row twice. A file
is known by its content and the store: once a run went through it, running it
again against the same store (under any --report, or none) is refused, naming
when and its report, unless --again. A workbook (.xlsx) is read like a CSV.
A CSV's cells
are separated by commas, or by semicolons or tabs when the header row has no
comma (--delimiter sets it).`,
		Example: `  storectl bis create --email jane@example.com --product-id 8001234560001 --variant-id 45001234560001 \
      --field full_name="Jane Doe" --field "Size you wear=M" --field accept_terms=true
  storectl bis create --interactive
  storectl bis create --from-file customers.csv --report report.csv
  storectl bis create --from-file customers.csv --resume`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.Run(cmd.Context(), opts, runF, runCreate)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Input.Email, "email", "", "customer e-mail `address`")
	fl.StringVar(&opts.Input.ProductID, "product-id", "", "product `id` (numeric)")
	fl.StringVar(&opts.Input.VariantID, "variant-id", "", "variant `id` (numeric)")
	fl.StringVar(&opts.Input.Phone, "phone", "", "customer phone in international form, such as +16025550123")
	fl.StringVar(&opts.Input.Locale, "locale", "", "`locale` of the notification e-mail")
	fl.StringVar(&opts.Input.Note, "note", "", "internal `note`")
	fl.StringArrayVar(&opts.FieldArgs, "field", nil, "custom field value as `ID_OR_LABEL=VALUE` (repeatable)")
	fl.BoolVarP(&opts.Interactive, "interactive", "i", false, "ask for each field of the form (terminal only)")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the request body instead of sending it")
	fl.StringVar(&opts.FromFile, "from-file", "", "create one submission per row of `FILE` (.csv, .json, .ndjson; - for stdin)")
	cmdutil.AddBulkFlags(cmd, &opts.Bulk)
	cmdutil.AddAgainFlag(cmd, &opts.Bulk)
	cmdutil.AddDelimiterFlag(cmd, &opts.Bulk)
	return cmd
}

func runCreate(ctx context.Context, opts *CreateOptions) error {
	if err := checkCreateFlags(opts); err != nil {
		return err
	}
	if opts.FromFile != "" {
		return runBulkCreate(ctx, opts)
	}
	in, err := flagInput(opts)
	if err != nil {
		return err
	}
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	one, err := buildSingle(ctx, opts, in)
	if err != nil {
		return err
	}
	if opts.DryRun {
		return printDryRun(opts.IO, s.Quiet, one.req)
	}
	client, err := opts.ShopClient()
	if err != nil {
		return err
	}
	sub := &submitter{client: client, forms: opts.Forms, form: one.form}
	res, err := sub.send(ctx, one.in, one.req)
	if err != nil {
		return err
	}
	return printCreated(opts.IO, p, s.Quiet, res)
}

// flagInput is the single submission the flags give, --field pairs read.
func flagInput(opts *CreateOptions) (bisform.Input, error) {
	in := opts.Input
	for _, arg := range opts.FieldArgs {
		p, err := bisform.ParsePair(arg)
		if err != nil {
			return in, exitcode.UsageHint(err, `quote it whole: --field "Size you wear=M"`)
		}
		in.Fields = append(in.Fields, p)
	}
	return in, nil
}

// single is one submission's request, built against the form.
type single struct {
	form *loadedForm
	in   bisform.Input
	req  *shop.BISCreateRequest
}

// buildSingle checks in (with --interactive, the answers asked for at the
// terminal) against the form: a value the form refuses is exit 2, nothing
// sent.
func buildSingle(ctx context.Context, opts *CreateOptions, in bisform.Input) (*single, error) {
	form, err := opts.Forms.Load(ctx, false)
	if err != nil {
		return nil, err
	}
	if opts.Interactive {
		if in, err = promptInput(opts.IO, form.Form, in); err != nil {
			return nil, err
		}
	}
	req, err := form.Form.Build(in)
	if err != nil {
		failure := localFailure(err)
		if opts.IO.CanPrompt() && !opts.Interactive && !givesSingle(opts) {
			failure = exitcode.UsageHint(failure, "pass the values as flags, or answer the form's questions with --interactive")
		}
		return nil, failure
	}
	return &single{form: form, in: in, req: req}, nil
}

func checkCreateFlags(opts *CreateOptions) error {
	switch {
	case opts.FromFile != "" && (givesSingle(opts) || opts.Interactive):
		return exitcode.UsageHint(errors.New("--from-file cannot be combined with the values of a single submission"),
			"put those values in the file's columns")
	case opts.FromFile == "":
		return opts.Bulk.OnlyWith("--from-file")
	}
	return nil
}

// givesSingle reports values of a single submission given as flags.
func givesSingle(opts *CreateOptions) bool {
	in := opts.Input
	return in.Email != "" || in.ProductID != "" || in.VariantID != "" || in.Phone != "" || in.Locale != "" || in.Note != "" ||
		len(opts.FieldArgs) > 0
}

// localFailure is a failed local check: exit 2, nothing sent.
func localFailure(err error) error {
	var ve *bisform.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	msg := ve.Problems[0].Message
	if len(ve.Problems) > 1 {
		var b strings.Builder
		fmt.Fprintf(&b, "%d problems:", len(ve.Problems))
		for _, p := range ve.Problems {
			b.WriteString("\n  - " + p.Message)
		}
		msg = b.String()
	}
	hint := "nothing was sent"
	if h := ve.Hint(); h != "" {
		hint = h + "\n      " + hint
	}
	return exitcode.UsageHint(errors.New(msg), hint)
}

func printDryRun(ios *iostreams.IOStreams, quiet bool, req *shop.BISCreateRequest) error {
	body, err := req.Body()
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(ios.Out, "%s\n", body); err != nil {
		return err
	}
	if !quiet {
		fmt.Fprintln(ios.ErrOut, "dry run: this body would be sent to POST /shop-api/back-in-stock/create; nothing was sent")
	}
	return nil
}

func printCreated(ios *iostreams.IOStreams, p *output.Printer, quiet bool, res *shop.SubmissionResult) error {
	if quiet {
		_, err := fmt.Fprintln(ios.Out, res.Submission.ID)
		return err
	}
	fmt.Fprintln(ios.ErrOut, output.Message(outcomeLine(res)))
	return p.Object(res.Raw, func(w io.Writer) error { return renderSubmission(w, ios, res.Raw) })
}

// outcomeLine tells a new submission from an existing one the server
// updated (see shop.SubmissionResult.Updated for how).
func outcomeLine(res *shop.SubmissionResult) string {
	sub := res.Submission
	if res.Updated() {
		return fmt.Sprintf("✓ Updated submission %s: %s was already registered for this variant", sub.ID, sub.CustomerEmail)
	}
	return fmt.Sprintf("✓ Created submission %s for %s", sub.ID, sub.CustomerEmail)
}
