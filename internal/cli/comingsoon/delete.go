package comingsoon

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bulk"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/completion"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/ids"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// DeleteOptions are the inputs of `comingsoon delete`.
type DeleteOptions struct {
	IO         *iostreams.IOStreams
	ShopClient func() (*shop.Client, error)
	Printer    func() (*output.Printer, error)
	Settings   func() (*config.Settings, error)
	Progress   func() *output.Progress
	Now        func() time.Time

	Args       []string // ids, or "-" for stdin
	FromFile   string   // a file of ids, or "-" for stdin
	Expired    bool     // also every rule whose end date has passed
	NamePrefix string   // also every rule whose name starts with this
	Yes        bool
	DryRun     bool
	Bulk       cmdutil.BulkFlags
}

func newDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cobra.Command {
	opts := &DeleteOptions{IO: f.IOStreams, ShopClient: f.ShopClient, Printer: f.Printer, Settings: f.Settings,
		Progress: f.Progress, Now: time.Now}
	cmd := &cobra.Command{
		Use:   "delete [ID...] [--from-file FILE | -] [--expired] [--name-prefix P]",
		Short: "Delete coming-soon rules, in batches of at most 100",
		Long: `Delete rules by ID, or the rules a selector finds in the store. IDs come from
the arguments, from --from-file FILE, or from stdin (an argument or
--from-file of "-"): one per line or separated by commas or spaces. Repeated
IDs are sent once. They are sent in batches of at most 100, one request each.

--expired selects every rule whose end date has passed, --name-prefix P every
rule whose name starts with P (both: rules that are both); the rule list is
read to find them, and they are added to any IDs given. --dry-run shows the
selected rules and the batches without sending anything.

On a terminal the command asks for confirmation, naming the store; otherwise
--yes is required.

Each batch's outcome is shown and kept in a journal (--report FILE names it);
an interrupted run continues with --resume. A batch the server answers
"Coming soon products not found" is reported and the others go on. Exit 5
when some batches failed, 3 when all did.`,
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
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "list the rules and batches without sending anything")
	cmdutil.AddBulkFlags(cmd, &opts.Bulk)
	return cmd
}

// batchResult is one delete request's line in the output.
type batchResult struct {
	Batch   int           `json:"batch"`
	Count   int           `json:"count"`
	IDs     []json.Number `json:"ids"`
	Outcome string        `json:"outcome,omitempty"`
	Message string        `json:"message,omitempty"`
}

var batchColumns = []output.Column{{Key: "batch"}, {Key: "count"}, {Key: "outcome"}, {Key: "message"}}

var dryRunColumns = []output.Column{{Key: "batch"}, {Key: "count"}, {Key: "ids", Value: func(o output.Object) string {
	var ids []json.Number
	raw, _ := o.Get("ids")
	_ = json.Unmarshal(raw, &ids)
	return joinIDs(ids)
}}}

func runDelete(ctx context.Context, opts *DeleteOptions) error {
	if err := opts.Bulk.Check(); err != nil {
		return err
	}
	ruleIDs, err := collectIDs(opts)
	if err != nil {
		return err
	}
	selecting := opts.Expired || opts.NamePrefix != ""
	if selecting {
		selected, err := selectRules(ctx, opts)
		if err != nil {
			return err
		}
		ruleIDs = appendNew(ruleIDs, selected)
		if len(ruleIDs) == 0 {
			fmt.Fprintln(opts.IO.ErrOut, "no rule matches: nothing to delete")
			return nil
		}
	}
	batches := batch(ruleIDs, shop.MaxDeleteIDs)
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	if opts.DryRun {
		if err := printBatches(p, batches, dryRunColumns); err != nil {
			return err
		}
		fmt.Fprintf(opts.IO.ErrOut, "dry run: %s in %s; nothing was sent\n", output.Plural(len(ruleIDs), "id"), output.Plural(len(batches), "request"))
		return nil
	}
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	question := fmt.Sprintf("delete %s", output.Plural(len(ruleIDs), "coming-soon rule"))
	if len(batches) > 1 {
		question += fmt.Sprintf(" in %d requests", len(batches))
	}
	if err := cmdutil.Confirm(opts.IO, question+" from "+cmdutil.StoreName(s), opts.Yes); err != nil {
		return err
	}
	client, err := opts.ShopClient()
	if err != nil {
		return err
	}
	journal, err := opts.Bulk.OpenJournal("comingsoon-delete", idsHash(ruleIDs))
	if err != nil {
		return err
	}
	defer journal.Close()
	for _, b := range batches {
		if _, err := journal.Done(b.Batch, bulk.RowKey(b.IDs)); err != nil {
			return err
		}
	}
	results, err := cmdutil.NewResults(opts.IO, p, opts.Progress(), s.Quiet, batchColumns)
	if err != nil {
		return err
	}
	runner := &bulk.Runner{Journal: journal, Refused: cmdutil.Refused, Fatal: cmdutil.TokenRejected, Message: cmdutil.FailureMessage,
		Progress: opts.Progress(), PaceLeft: client.PaceLeft, Noun: "delete requests", TallyLabel: "batches",
		ErrOut: opts.IO.ErrOut, ResumeCommand: cmdutil.ResumeCommand(), Now: opts.Now,
		Emit: func(r bulk.Result) error {
			b := batches[r.Item.Row-1]
			b.Outcome, b.Message = string(r.Outcome), r.Message
			return results.Write(b, false, "")
		}}
	runErr := runner.Run(ctx, len(batches), func(yield func(*bulk.Item) error) error {
		for _, b := range batches {
			if err := yield(deleteItem(client, b)); err != nil {
				return err
			}
		}
		return nil
	})
	if err := results.Close(); err != nil && runErr == nil {
		runErr = err
	}
	if runErr != nil {
		return runErr
	}
	return runner.Finish(s.Quiet, exitcode.APIRefused)
}

// deleteItem sends one batch. A batch an interrupted run sent is sent
// again: deleting twice changes nothing, and "not found" then means the
// first request did it.
func deleteItem(client *shop.Client, b batchResult) *bulk.Item {
	send := func(ctx context.Context) (bulk.Done, error) {
		msg, err := client.DeleteRules(ctx, b.IDs)
		return bulk.Done{Outcome: bulk.Deleted, ID: joinIDs(b.IDs), Message: msg}, err
	}
	return &bulk.Item{Row: b.Batch, Key: bulk.RowKey(b.IDs), Name: output.Plural(b.Count, "id"), Ref: joinIDs(b.IDs), Send: send,
		Recover: func(ctx context.Context, _ time.Time) (bulk.Done, bool, error) {
			d, err := send(ctx)
			if refusal, ok := cmdutil.RefusalOf(err); ok && strings.Contains(strings.ToLower(refusal.Message), "not found") {
				return bulk.Done{Outcome: bulk.Deleted, ID: joinIDs(b.IDs), Message: "deleted by the interrupted run"}, true, nil
			}
			return d, err == nil, nil
		}}
}

// selectRules reads the rule list for the rules --expired and --name-prefix
// select (both: the rules both select).
func selectRules(ctx context.Context, opts *DeleteOptions) ([]json.Number, error) {
	client, err := opts.ShopClient()
	if err != nil {
		return nil, err
	}
	now := opts.Now()
	var selected []json.Number
	opts.Progress().Update("reading the rule list")
	err = shop.EachPage(ctx, client.ListRules, func(p *shop.Page) error {
		rules, err := shop.DecodeItems(p, shop.DecodeRule)
		if err != nil {
			return err
		}
		for _, r := range rules {
			if opts.Expired && !expired(r, now) || opts.NamePrefix != "" && !strings.HasPrefix(r.Name, opts.NamePrefix) {
				continue
			}
			selected = append(selected, json.Number(r.ID))
		}
		return nil
	})
	opts.Progress().Stop()
	if err != nil {
		return nil, err
	}
	what := []string{}
	if opts.Expired {
		what = append(what, "expired")
	}
	if opts.NamePrefix != "" {
		what = append(what, fmt.Sprintf("named %q…", opts.NamePrefix))
	}
	fmt.Fprintf(opts.IO.ErrOut, "%s %s\n", output.Plural(len(selected), "rule"), strings.Join(what, " and "))
	return selected, nil
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

func printBatches(p *output.Printer, batches []batchResult, cols []output.Column) error {
	items := make([]json.RawMessage, len(batches))
	for i, b := range batches {
		raw, err := json.Marshal(b)
		if err != nil {
			return err
		}
		items[i] = raw
	}
	return p.List(items, cols)
}

func batch(list []json.Number, size int) []batchResult {
	var out []batchResult
	for start := 0; start < len(list); start += size {
		chunk := list[start:min(start+size, len(list))]
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
	type source struct {
		name  string
		lines func(fn func(line int, text string) error) error
		multi bool // name lines in messages
	}
	var sources []source
	var inputs []*bulk.Input
	defer func() {
		for _, in := range inputs {
			in.Close()
		}
	}()
	stdinUsed := false
	open := func(path string) error {
		if path == "-" {
			if stdinUsed {
				return nil
			}
			stdinUsed = true
		}
		in, err := bulk.Open(path, opts.IO.In, bulk.Formats{bulk.Text})
		if err != nil {
			return err
		}
		inputs = append(inputs, in)
		name := in.Name
		if path == "-" {
			name = "stdin"
		}
		sources = append(sources, source{name: name, lines: in.Lines, multi: true})
		return nil
	}
	for i, arg := range opts.Args {
		if arg == "-" {
			if err := open("-"); err != nil {
				return nil, err
			}
			continue
		}
		text := arg
		sources = append(sources, source{name: fmt.Sprintf("argument %d", i+1), lines: func(fn func(int, string) error) error { return fn(1, text) }})
	}
	if opts.FromFile != "" {
		if err := open(opts.FromFile); err != nil {
			return nil, err
		}
	}
	if len(sources) == 0 {
		if opts.Expired || opts.NamePrefix != "" {
			return nil, nil
		}
		return nil, exitcode.UsageHint(errors.New("no rule IDs given"),
			"pass IDs as arguments, --from-file FILE, - to read them from stdin, or select rules with --expired or --name-prefix")
	}

	seen := map[string]bool{}
	var ruleIDs []json.Number
	var bad []string
	for _, src := range sources {
		err := src.lines(func(line int, text string) error {
			for _, token := range ids.Split(text) {
				id, ok := ids.Normalize(token)
				if !ok {
					where := src.name
					if src.multi {
						where = fmt.Sprintf("%s line %d", src.name, line)
					}
					bad = append(bad, fmt.Sprintf("  %s: %q is not a rule ID", where, token))
					continue
				}
				if !seen[id] {
					seen[id] = true
					ruleIDs = append(ruleIDs, json.Number(id))
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(bad) > 0 {
		return nil, exitcode.UsageHint(fmt.Errorf("some rule IDs are not valid; nothing was deleted:\n%s", strings.Join(bad, "\n")),
			"rule IDs are whole numbers; `storectl comingsoon list` shows them")
	}
	if len(ruleIDs) == 0 && !opts.Expired && opts.NamePrefix == "" {
		return nil, exitcode.UsageHint(errors.New("no rule IDs given: the input was empty"),
			"pass IDs as arguments, --from-file FILE, or - to read them from stdin")
	}
	return ruleIDs, nil
}
