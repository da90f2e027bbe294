package comingsoon

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

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

	Args       []string // ids, or "-" for stdin
	FromFile   string   // a file of ids, or "-" for stdin
	Yes        bool
	DryRun     bool
	ReportPath string
}

func newDelete(f *cmdutil.Factory) *cobra.Command {
	opts := &DeleteOptions{IO: f.IOStreams, ShopClient: f.ShopClient, Printer: f.Printer, Settings: f.Settings, Progress: f.Progress}
	cmd := &cobra.Command{
		Use:   "delete [ID...] [--from-file FILE | -]",
		Short: "Delete coming-soon rules, in batches of at most 100",
		Long: `Delete rules by ID. IDs come from the arguments, from --from-file FILE, or
from stdin (an argument or --from-file of "-"): one per line or separated by
commas or spaces. Repeated IDs are sent once. They are sent in batches of at
most 100, one request each.

On a terminal the command asks for confirmation; otherwise --yes is required.
--dry-run lists the batches without sending anything.

Each batch's outcome is shown (and written to --report FILE). A batch the
server answers "Coming soon products not found" is reported and the others
go on. Exit 5 when some batches failed, 3 when all did.`,
		Example: `  storectl comingsoon delete 21 22 23
  storectl comingsoon list --all -o json --jq '.[] | select(.status == false) | .id' | storectl comingsoon delete - --yes
  storectl comingsoon delete --from-file old-rules.txt --dry-run`,
		ValidArgsFunction: completion.ManyIDs(f, completion.Rules),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			return runDelete(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.FromFile, "from-file", "", "read IDs from `FILE` (- for stdin)")
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "delete without asking (required when not at a terminal)")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "list the batches without sending anything")
	cmd.Flags().StringVar(&opts.ReportPath, "report", "", "write each batch's outcome to `FILE` (CSV)")
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
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id.String()
	}
	return strings.Join(parts, " ")
}}}

func runDelete(ctx context.Context, opts *DeleteOptions) error {
	ids, err := collectIDs(opts)
	if err != nil {
		return err
	}
	batches := batch(ids, shop.MaxDeleteIDs)
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	if opts.DryRun {
		if err := printBatches(p, batches, dryRunColumns); err != nil {
			return err
		}
		fmt.Fprintf(opts.IO.ErrOut, "dry run: %s in %s; nothing was sent\n", output.Plural(len(ids), "id"), output.Plural(len(batches), "request"))
		return nil
	}
	question := fmt.Sprintf("delete %s", output.Plural(len(ids), "coming-soon rule"))
	if len(batches) > 1 {
		question += fmt.Sprintf(" in %d requests", len(batches))
	}
	if err := cmdutil.Confirm(opts.IO, question, opts.Yes); err != nil {
		return err
	}
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	client, err := opts.ShopClient()
	if err != nil {
		return err
	}
	var report *bulk.Report
	if opts.ReportPath != "" {
		if report, err = bulk.OpenReport(opts.ReportPath, false); err != nil {
			return err
		}
		defer report.Close()
	}

	tally := bulk.Tally{}
	for i := range batches {
		b := &batches[i]
		opts.Progress().Update(fmt.Sprintf("deleting: request %d of %d", i+1, len(batches)))
		msg, err := client.DeleteRules(ctx, b.IDs)
		switch {
		case errors.Is(err, context.Canceled), exitcode.Of(err) == exitcode.Auth:
			// Every later batch would fail the same way.
			return err
		case err != nil:
			b.Outcome, b.Message = string(bulk.Failed), failureMessage(err)
		default:
			b.Outcome, b.Message = string(bulk.Deleted), msg
		}
		tally.Add(bulk.Outcome(b.Outcome))
		if report != nil {
			entry := bulk.Entry{Row: b.Batch, Key: bulk.RowKey(b.IDs), Outcome: bulk.Outcome(b.Outcome), ID: joinIDs(b.IDs), Message: b.Message}
			if err := report.Record(entry); err != nil {
				return err
			}
		}
	}
	opts.Progress().Stop()
	if !s.Quiet {
		if err := printBatches(p, batches, batchColumns); err != nil {
			return err
		}
	}
	fmt.Fprint(opts.IO.ErrOut, "batches: ")
	if err := tally.Finish(opts.IO.ErrOut, opts.ReportPath, exitcode.APIRefused); err != nil {
		return exitcode.WithHint(exitcode.Of(err),
			fmt.Errorf("%d of %d delete requests failed", tally[bulk.Failed], len(batches)),
			exitcode.HintOf(err))
	}
	return nil
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

func batch(ids []json.Number, size int) []batchResult {
	var out []batchResult
	for start := 0; start < len(ids); start += size {
		chunk := ids[start:min(start+size, len(ids))]
		out = append(out, batchResult{Batch: len(out) + 1, Count: len(chunk), IDs: chunk})
	}
	return out
}

func joinIDs(ids []json.Number) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id.String()
	}
	return strings.Join(parts, " ")
}

// collectIDs reads ids from the arguments, the file and stdin, checks them
// all (listing every bad one) and removes repeats, keeping the first
// occurrence's place.
func collectIDs(opts *DeleteOptions) ([]json.Number, error) {
	type source struct {
		name string
		text string
	}
	var sources []source
	stdinUsed := false
	readStdin := func() error {
		if stdinUsed {
			return nil
		}
		stdinUsed = true
		data, err := io.ReadAll(opts.IO.In)
		if err != nil {
			return fmt.Errorf("cannot read IDs from stdin: %w", err)
		}
		sources = append(sources, source{"stdin", string(data)})
		return nil
	}
	for i, arg := range opts.Args {
		if arg == "-" {
			if err := readStdin(); err != nil {
				return nil, err
			}
			continue
		}
		sources = append(sources, source{fmt.Sprintf("argument %d", i+1), arg})
	}
	switch opts.FromFile {
	case "":
	case "-":
		if err := readStdin(); err != nil {
			return nil, err
		}
	default:
		data, err := readInput(opts.IO.In, opts.FromFile)
		if err != nil {
			return nil, err
		}
		sources = append(sources, source{opts.FromFile, string(data)})
	}
	if len(sources) == 0 {
		return nil, exitcode.WithHint(exitcode.Usage, errors.New("no rule IDs given"),
			"pass IDs as arguments, --from-file FILE, or - to read them from stdin")
	}

	seen := map[string]bool{}
	var ruleIDs []json.Number
	var bad []string
	for _, src := range sources {
		sc := bufio.NewScanner(strings.NewReader(src.text))
		sc.Buffer(make([]byte, 64*1024), 16<<20)
		for line := 1; sc.Scan(); line++ {
			for _, token := range ids.Split(string(bytes.TrimPrefix(sc.Bytes(), utf8BOM))) {
				id, ok := ids.Normalize(token)
				if !ok {
					where := src.name
					if strings.Count(src.text, "\n") > 0 {
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
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("cannot read IDs from %s: %w", src.name, err)
		}
	}
	if len(bad) > 0 {
		return nil, exitcode.WithHint(exitcode.Usage,
			fmt.Errorf("some rule IDs are not valid; nothing was deleted:\n%s", strings.Join(bad, "\n")),
			"rule IDs are whole numbers; `storectl comingsoon list` shows them")
	}
	if len(ruleIDs) == 0 {
		return nil, exitcode.WithHint(exitcode.Usage, errors.New("no rule IDs given: the input was empty"),
			"pass IDs as arguments, --from-file FILE, or - to read them from stdin")
	}
	return ruleIDs, nil
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}
