package comingsoon

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bulk"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/completion"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/ids"
	"github.com/storectl/storectl/internal/output"
)

// DeleteOptions are the inputs of `comingsoon delete`.
type DeleteOptions struct {
	cmdutil.BulkDeps

	Args       []string // ids, or "-" for stdin
	FromFile   string   // a file of ids, or "-" for stdin
	Expired    bool     // also every rule whose end date has passed
	NamePrefix string   // also every rule whose name starts with this
	Yes        bool
	DryRun     bool
	Bulk       cmdutil.BulkFlags
}

func newDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cobra.Command {
	opts := &DeleteOptions{BulkDeps: f.BulkDeps()}
	cmd := &cobra.Command{
		Use:   "delete [ID...] [--from-file FILE | -] [--expired] [--name-prefix P]",
		Short: "Delete coming-soon rules, in batches of at most 100",
		Long: `Delete rules by ID, or the rules a selector finds in the store. IDs come from
the arguments, from --from-file FILE, or from stdin (an argument or
--from-file of "-"): one per line or separated by commas or spaces. Repeated
IDs are sent once. They are sent in batches of at most 100, one request each.

--expired selects every rule whose end date has passed, --name-prefix P every
rule whose name starts with P (both: rules that are both); the rule list is
read to find them, and they are added to any IDs given. --dry-run lists the
rules, each with its batch and its name (from one read of the rule list),
and deletes nothing.

On a terminal the command asks for confirmation, naming the store; otherwise
--yes is required.

An id the store no longer has counts as done: "already gone" (outcome gone),
never "deleted". The API deletes the ids of a batch it finds and does not say
which (finding none, it answers "Coming soon products not found"), so for
more than one id the rule list is read first (until every id is seen; to its
end when some are missing) and only the ids the store has are sent; a batch
of ids all gone is not sent at all. One id alone is sent as it is, and a
"not found" answer means it is gone.

Each batch's outcome is shown and kept in a journal (--report FILE names it);
an interrupted run continues with --resume. Exit 5 when some batches failed,
3 when all did.`,
		Example: `  storectl comingsoon delete 21 22 23
  storectl comingsoon list --all -o json --jq '.[] | select(.status == false) | .id' | storectl comingsoon delete - --yes
  storectl comingsoon delete --from-file old-rules.txt --dry-run
  storectl comingsoon delete --expired --dry-run
  storectl comingsoon delete --expired --name-prefix "Launch " --yes`,
		ValidArgsFunction: completion.ManyIDs(f, completion.Rules),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			return cmdutil.Run(cmd.Context(), opts, runF, runDelete)
		},
	}
	cmd.Flags().StringVar(&opts.FromFile, "from-file", "", "read IDs from `FILE` (- for stdin)")
	cmd.Flags().BoolVar(&opts.Expired, "expired", false, "also delete every rule whose end date has passed")
	cmd.Flags().StringVar(&opts.NamePrefix, "name-prefix", "", "also delete every rule whose name starts with `PREFIX`")
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "delete without asking (required when not at a terminal)")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "list the rules with their names and batches, deleting nothing")
	cmdutil.AddBulkFlags(cmd, &opts.Bulk)
	return cmd
}

// batchResult is one delete request's line in the output. Gone are the
// batch's ids the store's rule list did not have: already gone, they are
// not sent.
type batchResult struct {
	Batch   int           `json:"batch"`
	Count   int           `json:"count"`
	IDs     []json.Number `json:"ids"`
	Gone    []json.Number `json:"gone,omitempty"`
	Outcome string        `json:"outcome,omitempty"`
	Message string        `json:"message,omitempty"`
}

var batchColumns = []output.Column{{Key: "batch"}, {Key: "count"}, {Key: "outcome"}, {Key: "message"}}

func runDelete(ctx context.Context, opts *DeleteOptions) error {
	if err := opts.Bulk.Check(); err != nil {
		return err
	}
	ruleIDs, names, err := deleteIDs(ctx, opts)
	if err != nil || len(ruleIDs) == 0 {
		return err
	}
	batches := idBatches(ruleIDs)
	if opts.DryRun {
		return printDeleteDryRun(ctx, opts, batches, names)
	}
	env, err := opts.Env()
	if err != nil {
		return err
	}
	if err := confirmDelete(opts, env.Store, len(ruleIDs), len(batches)); err != nil {
		return err
	}
	if err := env.Connect(); err != nil {
		return err
	}
	journal, err := openDeleteJournal(opts, ruleIDs, batches)
	if err != nil {
		return err
	}
	defer journal.Close()
	if err := markGone(ctx, env, batches, names); err != nil {
		return err
	}
	run, err := bulk.Start(bulk.Spec{Env: env.Env, Journal: journal, Columns: batchColumns, Noun: "delete requests", TallyLabel: "batches",
		AllFailed: exitcode.APIRefused,
		Emit: func(r bulk.Result, out *bulk.Results) error {
			b := batches[r.Item.Row-1]
			b.Outcome, b.Message = string(r.Outcome), r.Message
			return out.Write(b, false, "")
		}})
	if err != nil {
		return err
	}
	return run.Do(ctx, len(batches), func(yield func(*bulk.Item) error) error {
		for _, b := range batches {
			if err := yield(deleteItem(env.Client, b)); err != nil {
				return err
			}
		}
		return nil
	})
}

// deleteIDs are the ids to delete: those given, then those the selectors
// find. None (nil) when the selectors find nothing, which is said. When
// the selectors read the rule list, names holds every rule's name (else
// nil).
func deleteIDs(ctx context.Context, opts *DeleteOptions) ([]json.Number, ruleNames, error) {
	ruleIDs, err := collectIDs(opts)
	if err != nil || !opts.selecting() {
		return ruleIDs, nil, err
	}
	selected, names, err := selectRules(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	ruleIDs = appendNew(ruleIDs, selected)
	if len(ruleIDs) == 0 {
		fmt.Fprintln(opts.IO.ErrOut, "no rule matches: nothing to delete")
	}
	return ruleIDs, names, nil
}

func (o *DeleteOptions) selecting() bool { return o.Expired || o.NamePrefix != "" }

// confirmDelete asks at a terminal, naming the store; elsewhere --yes is
// required.
func confirmDelete(opts *DeleteOptions, store string, ids, batches int) error {
	question := fmt.Sprintf("delete %s", output.Plural(ids, "coming-soon rule"))
	if batches > 1 {
		question += fmt.Sprintf(" in %d requests", batches)
	}
	return cmdutil.Confirm(opts.IO, question+" from "+store, opts.Yes)
}

// openDeleteJournal opens the journal, named after the ids, and checks
// that the batches a resumed run finished are the same ids.
func openDeleteJournal(opts *DeleteOptions, ruleIDs []json.Number, batches []batchResult) (*bulk.Journal, error) {
	s, err := opts.Settings()
	if err != nil {
		return nil, err
	}
	journal, err := opts.Bulk.OpenJournal("comingsoon-delete", idsHash(ruleIDs), s)
	if err != nil {
		return nil, err
	}
	for _, b := range batches {
		if _, err := journal.Done(b.Batch, bulk.RowKey(b.IDs)); err != nil {
			journal.Close()
			return nil, err
		}
	}
	return journal, nil
}

// selectRules reads the rule list for the rules --expired and --name-prefix
// select (both: the rules both select), and every rule's name.
func selectRules(ctx context.Context, opts *DeleteOptions) ([]json.Number, ruleNames, error) {
	now := opts.Now()
	var selected []json.Number
	names, err := eachRule(ctx, opts, func(r shop.Rule) {
		if opts.Expired && !expired(r, now) || opts.NamePrefix != "" && !strings.HasPrefix(r.Name, opts.NamePrefix) {
			return
		}
		selected = append(selected, json.Number(r.ID))
	})
	if err != nil {
		return nil, nil, err
	}
	what := []string{}
	if opts.Expired {
		what = append(what, "expired")
	}
	if opts.NamePrefix != "" {
		what = append(what, fmt.Sprintf("named %q…", opts.NamePrefix))
	}
	fmt.Fprintf(opts.IO.ErrOut, "%s %s\n", output.Plural(len(selected), "rule"), strings.Join(what, " and "))
	return selected, names, nil
}

// expired reports a rule whose end date has passed; a rule without one
// never expires.
func expired(r shop.Rule, now time.Time) bool {
	end, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(r.EndDate))
	if err != nil {
		end, err = time.Parse(time.DateTime, strings.TrimSpace(r.EndDate))
	}
	return err == nil && !end.After(now)
}

func appendNew(list, more []json.Number) []json.Number {
	seen := make(map[json.Number]bool, len(list))
	for _, id := range list {
		seen[id] = true
	}
	for _, id := range more {
		if !seen[id] {
			seen[id] = true
			list = append(list, id)
		}
	}
	return list
}

func idsHash(list []json.Number) string {
	sum := sha256.Sum256([]byte(joinIDs(list)))
	return hex.EncodeToString(sum[:])
}

// idBatches are the delete requests of the ids, numbered from 1.
func idBatches(list []json.Number) []batchResult {
	var out []batchResult
	for _, chunk := range deleteBatches(list) {
		out = append(out, batchResult{Batch: len(out) + 1, Count: len(chunk), IDs: chunk})
	}
	return out
}

func joinIDs(list []json.Number) string {
	parts := make([]string, len(list))
	for i, id := range list {
		parts[i] = id.String()
	}
	return strings.Join(parts, " ")
}

// collectIDs reads ids from the arguments, the file and stdin, checks them
// all (listing every bad one) and removes repeats, keeping the first
// occurrence's place.
func collectIDs(opts *DeleteOptions) ([]json.Number, error) {
	r := &idReader{stdin: opts.IO.In}
	defer r.close()
	if err := r.add(opts.Args, opts.FromFile); err != nil {
		return nil, err
	}
	if len(r.sources) == 0 && opts.selecting() {
		return nil, nil
	}
	if len(r.sources) == 0 {
		return nil, exitcode.UsageHint(errors.New("no rule IDs given"),
			"pass IDs as arguments, --from-file FILE, - to read them from stdin, or select rules with --expired or --name-prefix")
	}
	ruleIDs, bad, err := r.read()
	switch {
	case err != nil:
		return nil, err
	case len(bad) > 0:
		return nil, exitcode.UsageHint(fmt.Errorf("some rule IDs are not valid; nothing was deleted:\n%s", strings.Join(bad, "\n")),
			"rule IDs are whole numbers; `storectl comingsoon list` shows them")
	case len(ruleIDs) == 0 && !opts.selecting():
		return nil, exitcode.UsageHint(errors.New("no rule IDs given: the input was empty"),
			"pass IDs as arguments, --from-file FILE, or - to read them from stdin")
	}
	return ruleIDs, nil
}

// idReader reads rule ids from their sources, in order.
type idReader struct {
	stdin     io.Reader
	stdinUsed bool // "-" given twice reads stdin once
	inputs    []*bulk.Input
	sources   []idSource
}

// idSource is an argument, a file or stdin.
type idSource struct {
	name  string
	lines func(fn func(line int, text string) error) error
	multi bool // name lines in messages
}

// add takes the arguments, then --from-file.
func (r *idReader) add(args []string, fromFile string) error {
	for i, arg := range args {
		if arg == "-" {
			if err := r.open("-"); err != nil {
				return err
			}
			continue
		}
		text := arg
		r.sources = append(r.sources, idSource{name: fmt.Sprintf("argument %d", i+1), lines: func(fn func(int, string) error) error { return fn(1, text) }})
	}
	if fromFile == "" {
		return nil
	}
	return r.open(fromFile)
}

func (r *idReader) open(path string) error {
	if path == "-" && r.stdinUsed {
		return nil
	}
	r.stdinUsed = r.stdinUsed || path == "-"
	in, err := cmdutil.OpenBulkInput(path, "--from-file", r.stdin, bulk.Formats{bulk.Text})
	if err != nil {
		return err
	}
	r.inputs = append(r.inputs, in)
	name := in.Name
	if path == "-" {
		name = "stdin"
	}
	r.sources = append(r.sources, idSource{name: name, lines: in.Lines, multi: true})
	return nil
}

func (r *idReader) close() {
	for _, in := range r.inputs {
		in.Close()
	}
}

// read returns the distinct valid ids in order, and a line for each bad
// one.
func (r *idReader) read() (ruleIDs []json.Number, bad []string, err error) {
	seen := map[string]bool{}
	for _, src := range r.sources {
		err := src.lines(func(line int, text string) error {
			for _, token := range ids.Split(text) {
				id, ok := ids.Normalize(token)
				switch {
				case !ok:
					bad = append(bad, fmt.Sprintf("  %s: %q is not a rule ID", src.where(line), token))
				case !seen[id]:
					seen[id] = true
					ruleIDs = append(ruleIDs, json.Number(id))
				}
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	return ruleIDs, bad, nil
}

func (s idSource) where(line int) string {
	if s.multi {
		return fmt.Sprintf("%s line %d", s.name, line)
	}
	return s.name
}
