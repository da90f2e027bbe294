package comingsoon

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/completion"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
	"github.com/storectl/storectl/internal/ruleform"
)

// CreateOptions are the inputs of `comingsoon create`, for one rule from
// flags or many from a file.
type CreateOptions struct {
	cmdutil.BulkDeps
	Loc *time.Location

	Input        ruleform.Input
	Translations []string // LANG.KEY=TEXT
	DryRun       bool

	FromFile string
	Bulk     cmdutil.BulkFlags
	// ruleFlags are the single-rule flags given, which --from-file excludes.
	ruleFlags []string
}

// flagNames are the flags that give each API field, for messages.
var flagNames = map[string]string{"name": "--name", "start_date": "--start", "end_date": "--end", "apply_to": "--apply-to",
	"product_ids": "--product-id", "variant_ids": "--variant-id", "collection_id": "--collection-id", "status": "--status",
	"show_countdown": "--show-countdown"}

// singleRuleFlags describe one rule; a file describes its rules itself.
var singleRuleFlags = []string{"name", "start", "end", "apply-to", "product-id", "variant-id", "collection-id", "status", "show-countdown", "translation"}

func newCreate(f *cmdutil.Factory, runF func(*CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{BulkDeps: f.BulkDeps(), Loc: time.Local}
	countdown := &optionalBool{}
	cmd := &cobra.Command{
		Use:   "create",
		Short: "Create a coming-soon rule from flags, or many from a file",
		Long: `Create one rule from flags, or many from a file with --from-file.

Dates accept ISO 8601 (2026-10-01T09:00:00+02:00 or …Z), "YYYY-MM-DD HH:MM:SS"
and "YYYY-MM-DD". Dates without a zone are your local time; an end date without
a time (--end 2026-12-15) ends the rule at the end of that day, 23:59:59. Every
date is sent in UTC with a Z; --dry-run shows each as the instant in your time
zone and as sent, and the created rule is shown in your time zone, as
"comingsoon list" shows it.

Every rule the server checks is checked first, with the server's messages: on
a failure nothing is sent and the exit code is 2.

--translation LANG.KEY=TEXT sets a text for a language ("default" or a locale
code). KEY is comingSoonAddToCartText, comingSoonAboveMessage or
comingSoonBellowMessage, or for short addToCart, above, below.

Bulk: --from-file FILE takes a JSON array, a YAML list, a CSV with a header
row or an .xlsx workbook (format from the extension, else from the content;
- reads stdin). Fields are the API's: name, start_date, end_date,
apply_to, product_ids, variant_ids, collection_id, status, show_countdown,
translations (in CSV, one column per text: translations.LANG.KEY; id cells
list ids separated by ; or spaces).
Every row is checked before anything is sent, and all problems are listed
with their row numbers. Rules are then created one by one at the store's
rate limit. A journal records each row's outcome as it happens (--report
FILE names it; otherwise it is kept in storectl's state directory): after an
interruption --resume continues without creating any rule twice, and a new
run over an unfinished journal is refused unless --force. A file is known by
its content and the store: once a run went through it, running it again
against the same store, under any --report or none, is refused (it would
create every rule a second time), naming when and its report, unless
--again; "comingsoon apply" keeps the store equal to a file instead. A CSV's
cells are separated by commas, or by semicolons or tabs when the header row
has no comma (--delimiter sets it). A workbook (.xlsx) is read like a CSV;
what "comingsoon list" writes in any format reads back as the same rules
(the CSV formula guard's leading ' is removed). Exit 5 when some rows
failed.`,
		Example: `  storectl comingsoon create --name "Fall drop" --start 2026-10-01 --apply-to product --product-id 8001,8002
  storectl comingsoon create --name Teaser --start "2026-10-01 09:00:00" --end 2026-10-15 \
      --apply-to collection --collection-id 4001 --show-countdown --translation fr.above="Bientôt"
  storectl comingsoon create --from-file rules.csv --report created.csv
  storectl comingsoon create --from-file rules.csv --resume`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, name := range singleRuleFlags {
				if cmd.Flags().Changed(name) {
					opts.ruleFlags = append(opts.ruleFlags, "--"+name)
				}
			}
			opts.Input.StatusSet = cmd.Flags().Changed("status")
			opts.Input.ShowCountdown = countdown.value
			return cmdutil.Run(cmd.Context(), opts, runF, runCreate)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Input.Name, "name", "", "rule `name` (at most 255 characters)")
	fl.StringVar(&opts.Input.Start, "start", "", "start `date`: ISO 8601, YYYY-MM-DD HH:MM:SS or YYYY-MM-DD")
	fl.StringVar(&opts.Input.End, "end", "", "end `date`, after the start; a day alone ends at its end (default: no end)")
	fl.StringVar(&opts.Input.ApplyTo, "apply-to", "", "`target` the rule covers: "+strings.Join(ruleform.ApplyValues, ", "))
	fl.StringArrayVar(&opts.Input.ProductIDs, "product-id", nil, "product `ID`s for --apply-to product (repeat or comma-separate; 1 to 50)")
	fl.StringArrayVar(&opts.Input.VariantIDs, "variant-id", nil, "variant `ID`s for --apply-to variant (repeat or comma-separate; 1 to 50)")
	fl.StringVar(&opts.Input.CollectionID, "collection-id", "", "collection `ID` for --apply-to collection")
	fl.StringVar(&opts.Input.Status, "status", "1", "`0|1`: 1 for active, 0 for inactive")
	fl.Var(countdown, "show-countdown", "show a countdown timer (--show-countdown=false to hide it; default: not set)")
	fl.Lookup("show-countdown").NoOptDefVal = "true"
	fl.StringArrayVar(&opts.Translations, "translation", nil, "translated text as `LANG.KEY=TEXT` (repeatable)")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "check and print the request body(ies) without sending anything")
	fl.StringVar(&opts.FromFile, "from-file", "", "create one rule per row of `FILE` (.csv, .xlsx, .json, .yaml; - for stdin)")
	cmdutil.AddBulkFlags(cmd, &opts.Bulk)
	cmdutil.AddAgainFlag(cmd, &opts.Bulk)
	cmdutil.AddDelimiterFlag(cmd, &opts.Bulk)
	_ = cmd.RegisterFlagCompletionFunc("apply-to", completion.ApplyTo())
	_ = cmd.RegisterFlagCompletionFunc("status", completion.RuleStatus())
	return cmd
}

func runCreate(ctx context.Context, opts *CreateOptions) error {
	if opts.FromFile != "" {
		if len(opts.ruleFlags) > 0 {
			return exitcode.Usagef("%s cannot be used with --from-file: the file gives each rule's fields", strings.Join(opts.ruleFlags, ", "))
		}
		return runBulkCreate(ctx, opts)
	}
	if err := opts.Bulk.OnlyWith("--from-file"); err != nil {
		return err
	}
	rule, err := flagRule(opts)
	if err != nil {
		return err
	}
	body, err := rule.Request.Body()
	if err != nil {
		return err
	}
	if opts.DryRun {
		return printDryRun(opts.IO, body, rule.Notes)
	}
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	client, err := opts.ShopClient()
	if err != nil {
		return err
	}
	created, err := client.CreateRule(ctx, rule.Request)
	if err != nil {
		return err
	}
	return printCreatedRule(opts, s.Quiet, p, created)
}

// flagRule is the rule the flags give, with every problem of it at once
// (exit 2, nothing sent).
func flagRule(opts *CreateOptions) (ruleform.Rule, error) {
	in := opts.Input
	in.Names = flagNames
	var problems []ruleform.Problem
	for _, spec := range opts.Translations {
		t, err := ruleform.ParseTranslation(spec)
		if err != nil {
			problems = append(problems, ruleform.Problem{Field: "translations", Message: err.Error()})
			continue
		}
		in.Translations = append(in.Translations, t)
	}
	rule, more := ruleform.Build(in, opts.Loc)
	if problems = append(problems, more...); len(problems) > 0 {
		return rule, invalidRule(problems)
	}
	return rule, nil
}

// printCreatedRule prints the created rule: its id alone with --quiet,
// else the rule, after a confirmation on stderr in table mode.
func printCreatedRule(opts *CreateOptions, quiet bool, p *output.Printer, created *shop.RuleResult) error {
	if quiet {
		_, err := fmt.Fprintln(opts.IO.Out, created.Rule.ID)
		return err
	}
	if p.IsTable() {
		fmt.Fprintf(opts.IO.ErrOut, "✓ created coming-soon rule %s\n", created.Rule.ID)
	}
	return printRule(p, opts.IO, created, opts.Loc, opts.Now())
}

// invalidRule is the exit-2 error listing every problem of one rule.
func invalidRule(problems []ruleform.Problem) error {
	lines := make([]string, len(problems))
	for i, p := range problems {
		lines[i] = "  " + p.Message
	}
	return exitcode.UsageHint(fmt.Errorf("the rule is not valid; nothing was sent:\n%s", strings.Join(lines, "\n")),
		"fix the flags named above (`storectl comingsoon create --help` describes them)")
}

// printDryRun shows the body that would be sent on stdout and how dates
// were read on stderr.
func printDryRun(ios *iostreams.IOStreams, body []byte, notes []string) error {
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, body, "", "  "); err != nil {
		return err
	}
	pretty.WriteByte('\n')
	if _, err := ios.Out.Write(pretty.Bytes()); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(ios.ErrOut, "note: "+n)
	}
	fmt.Fprintln(ios.ErrOut, "dry run: POST /shop-api/coming-soon/create was not sent")
	return nil
}

// optionalBool is a flag that can be left unset, set bare (true) or given a
// value; the value is checked with the server's message by ruleform.
type optionalBool struct{ value string }

func (b *optionalBool) String() string     { return b.value }
func (b *optionalBool) Set(s string) error { b.value = s; return nil }
func (b *optionalBool) Type() string       { return "bool" }
