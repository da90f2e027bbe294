package comingsoon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/ruleform"
)

// ApplyOptions are the inputs of `comingsoon apply`.
type ApplyOptions struct {
	cmdutil.BulkDeps
	Loc *time.Location

	File   string
	Prune  bool
	Yes    bool
	DryRun bool
	Bulk   cmdutil.BulkFlags
	// ExpectPlan, when set, is the digest (ruleform.PlanDigest) of the
	// plan a dry run showed: a run that plans otherwise sends nothing.
	ExpectPlan string
}

func newApply(f *cmdutil.Factory, runF func(*ApplyOptions) error) *cobra.Command {
	opts := &ApplyOptions{BulkDeps: f.BulkDeps(), Loc: time.Local}
	cmd := &cobra.Command{
		Use:   "apply --file FILE [--prune] [--yes] [--dry-run]",
		Short: "Make the store's coming-soon rules equal to a file",
		Long: `Make the store's rules what a file says they should be, and do nothing when
they already are: run it again and again (a nightly job fed by a launch
calendar), nothing is created twice.

The file is the one "comingsoon create --from-file" reads (CSV, an .xlsx
workbook, JSON or YAML, the same columns and keys; - reads stdin): what
"comingsoon list" writes in any format, and "comingsoon get ID -o json", read
back as the same rules, so apply --prune --dry-run on a fresh listing plans
nothing. A leading ' before = + - @ tab or CR in a CSV cell or workbook text
is the formula guard's and is removed (a name that starts with '= is written
''=). A rule is known by its name: each name may appear once in the file,
and every row is checked before anything is sent (exit 2 otherwise). A row
without a start date equals only a rule without one; the API creates no
such rule, so a plan that would create one is refused.

apply reads every rule in the store, and the detail (translations) of each
rule named like a row, and plans:

  create     no rule in the store has the name
  replace    a rule has the name but differs: the API has no update, so
             the new rule is created first and the old one deleted after
             (if the create fails, the old rule stays)
  unchanged  a rule with the name is equal to the row
  delete     another rule with a name the file lists (the file owns its
             names), or with --prune, a rule whose name the file lacks

Rules compare as the API means them: dates as instants to the second (dates
without a zone in the file are your local time), status 0/1 against true/false,
id lists as sets, translations as objects (texts trimmed, empty ones ignored).

The plan is printed on stdout (a table of the changes; -o json with --dry-run
gives every step as data, unchanged ones too), its summary on stderr. On a
terminal apply asks before changing anything, naming the store; elsewhere
--yes is required. --dry-run prints the plan and the exact requests and
sends no write.

Creates go first, one by one, then the deletes in batches of at most 100. A
journal records each request as it goes (--report FILE names it; otherwise it
is kept in storectl's state directory); after an interruption --resume plans
again from the store and never creates a rule twice. Exit 0 when the store
matches the file, 5 when some changes failed, 2 on a bad file.`,
		Example: `  storectl comingsoon apply --file launches.csv --dry-run
  storectl comingsoon apply --file launches.csv
  storectl comingsoon apply --file launches.csv --prune --yes --report apply-$(date +%F).csv
  storectl comingsoon apply --file launches.yaml --dry-run -o json --jq '.[] | select(.action != "unchanged")'`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.Run(cmd.Context(), opts, runF, runApply)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&opts.File, "file", "f", "", "read the rules that should exist from `FILE` (.csv, .xlsx, .json, .yaml; - for stdin)")
	fl.BoolVar(&opts.Prune, "prune", false, "also delete the rules whose names the file does not list")
	fl.BoolVarP(&opts.Yes, "yes", "y", false, "apply without asking (required when not at a terminal)")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the plan and the requests it would send, and send nothing")
	cmdutil.AddBulkFlags(cmd, &opts.Bulk)
	cmdutil.AddDelimiterFlag(cmd, &opts.Bulk)
	// What storectl mcp applies a plan an assistant showed with: not for
	// people, who see the plan and answer the question.
	fl.StringVar(&opts.ExpectPlan, "expect-plan", "", "apply only when the plan made now has this `digest` (of the dry run's -o json steps)")
	_ = fl.MarkHidden("expect-plan")
	return cmd
}

func runApply(ctx context.Context, opts *ApplyOptions) error {
	if opts.File == "" {
		return exitcode.UsageHint(fmt.Errorf("no file given"),
			"name the rules that should exist with --file FILE (the columns of `comingsoon create --from-file`)")
	}
	in, journal, err := opts.Bulk.Open(cmdutil.BulkFile{Command: "comingsoon-apply", Flag: "--file", Path: opts.File, Noun: "rules", DryRun: opts.DryRun,
		Settings: opts.Settings}, opts.IO.In)
	if err != nil {
		return err
	}
	defer in.Close()
	defer journal.Close()
	file, err := readFileRules(in, opts.Loc)
	if err != nil {
		return err
	}
	env, err := opts.Env()
	if err != nil {
		return err
	}
	// Refused before anything is read from the store: the question needs
	// the plan, but a script without --yes gets its answer at once.
	if !opts.DryRun {
		if err := cmdutil.CanConfirm(opts.IO, "apply "+in.Name+" to "+env.Store, opts.Yes); err != nil {
			return err
		}
	}
	if err := env.Connect(); err != nil {
		return err
	}
	a, err := planApply(ctx, opts, env, file, in.Name)
	if err != nil {
		return err
	}
	if err := a.checkExpected(file); err != nil {
		return err
	}
	if opts.DryRun {
		return a.shown().dryRun(file, in.Name)
	}
	if err := a.confirm(); err != nil {
		return err
	}
	return a.run(ctx, journal)
}

// planApply reads the store and plans what makes it equal to the file.
func planApply(ctx context.Context, opts *ApplyOptions, env *cmdutil.BulkEnv, file *fileRules, fileName string) (*applier, error) {
	store, err := readStore(ctx, env.Client, env.Progress, file.wanted)
	if err != nil {
		return nil, err
	}
	plan := ruleform.MakePlan(file.wanted, store, opts.Prune)
	if err := uncreatable(plan, fileName); err != nil {
		return nil, err
	}
	return &applier{opts: opts, env: env, plan: plan, file: file, store: store, fileName: fileName}, nil
}

// checkExpected refuses a plan other than the one expected (--expect-plan):
// the store's rules changed since it was shown. A resumed run plans again
// from a store the run itself changed, so it is not held to it.
func (a *applier) checkExpected(file *fileRules) error {
	if a.opts.ExpectPlan == "" || a.opts.Bulk.Resume {
		return nil
	}
	lines := a.shown().lines(file, true)
	items := make([]json.RawMessage, len(lines))
	for i, l := range lines {
		raw, err := marshalLine(l)
		if err != nil {
			return err
		}
		items[i] = raw
	}
	if ruleform.PlanDigest(items) != a.opts.ExpectPlan {
		return exitcode.UsageHint(errors.New("the store's coming-soon rules changed since the plan was made, so applying now would not do what the plan showed; nothing was sent"),
			"make the plan again (comingsoon apply --dry-run) and check it")
	}
	return nil
}

// confirm shows the plan and asks before changing anything, unless --yes.
func (a *applier) confirm() error {
	if err := a.shown().table(); err != nil {
		return err
	}
	if !a.plan.Changes() || a.opts.Yes {
		return nil
	}
	a.env.Progress.Stop() // for good: the question needs the line
	question := fmt.Sprintf("apply %s to %s (%s)", a.fileName, a.env.Store, a.plan.Summary())
	return cmdutil.Confirm(a.opts.IO, question, a.opts.Yes)
}
