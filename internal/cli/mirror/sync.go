package mirror

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
)

// SyncOptions are the inputs of `mirror sync`.
type SyncOptions struct {
	cmdutil.MirrorDeps
	Groups  []string
	Full    bool
	Details bool
	Wait    bool
	Refresh refreshFlags
	cmd     *cobra.Command
	Now     func() time.Time
}

func newSync(f *cmdutil.Factory, runF func(*SyncOptions) error) *cobra.Command {
	opts := &SyncOptions{MirrorDeps: f.MirrorDeps(), Now: time.Now}
	cmd := &cobra.Command{
		Use:   "sync [bis|preorder|comingsoon]...",
		Short: "Bring the mirror up to date",
		Long: `Bring the mirror up to date with the store: back-in-stock submissions (bis),
pre-order offers and product rows (preorder), coming-soon rules (comingsoon);
all three when none is named.

The first sync of a list reads every page. Later syncs are incremental: they
read from page 1 and stop at the first page whose rows the mirror already has
unchanged, which relies on the list being newest first; a full pass records
whether it was, and when not, the next sync reads every page again and says
why. --full reads every page; rows a full pass no longer finds are marked
gone (kept, with gone_at set), not deleted.

Every page is stored with the sync's journal in one transaction: Ctrl-C, a
network failure or a killed process loses nothing, and the next sync
continues the interrupted pass from the page in flight.

On a team's PostgreSQL mirror (mirror_url) one storectl writes a store at a
time, on any machine. A second sync does not read the store again: it says
who holds the store's lease (host, pid, since when, last heartbeat) and
answers from the mirror as it is (exit 0); --wait waits for the lease, then
catches up. A holder that died is taken over once its heartbeat expires. On
the local SQLite mirror a second sync waits for the first.

--details also fetches details, one request each: of the rules that are new
or changed since their detail was fetched; of the submissions in this order
until --budget requests are spent or the --for time is up:
  1. sent submissions never detailed, newest first;
  2. submissions whose updated_at moved since their detail was fetched;
  3. sent submissions inside the engagement window (--window, 14 days after
     the e-mail) whose detail is older than --recheck (24h): opens and
     clicks arrive there whether or not they move updated_at;
  4. pending submissions never detailed (locale, form answers).
A sent submission past the window with its detail is frozen: fetched again
only when its updated_at moves. Details use --share (80%) of the token's
requests, shared with every storectl using it, so that a person's commands
still get the rest. Each detail is stored as it arrives; a request in flight
when the run was stopped is not sent again until --recheck has passed.
Offers always get their details, as only the detail lists an offer's
products. ` + "`storectl mirror status`" + ` shows what is due.`,
		Example: `  storectl mirror sync
  storectl mirror sync bis --details
  storectl mirror sync bis --details --for 50m      # from cron, every hour
  storectl mirror sync bis --details --budget 200 --share 50%
  storectl mirror sync preorder --full
  storectl mirror sync --wait                       # a team's mirror: wait for the other syncer`,
		ValidArgs: mirror.Groups,
		Args: func(cmd *cobra.Command, args []string) error {
			for _, a := range args {
				if !slices.Contains(mirror.Groups, a) {
					return exitcode.Usagef("%q is not something the mirror holds: name bis, preorder or comingsoon (or none, for all three)", a)
				}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Groups, opts.cmd = args, cmd
			return cmdutil.Run(cmd.Context(), opts, runF, runSync)
		},
	}
	cmd.Flags().BoolVar(&opts.Full, "full", false, "read every page, and mark rows no longer found as gone")
	cmd.Flags().BoolVar(&opts.Wait, "wait", false, "on a team's PostgreSQL mirror another storectl is syncing: wait for it, then catch up")
	cmd.Flags().BoolVar(&opts.Details, "details", false, "fetch the details due: of new or changed rules, of submissions by priority (one request each)")
	opts.Refresh.register(cmd)
	return cmd
}

func runSync(ctx context.Context, opts *SyncOptions) error {
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	if s.Offline {
		return exitcode.UsageError("mirror sync asks the store, and --offline sends nothing: drop --offline")
	}
	now := time.Now()
	if opts.Now != nil {
		now = opts.Now()
	}
	refresh, err := opts.Refresh.options(opts.cmd, opts.Details, now)
	if err != nil {
		return err
	}
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	c, err := opts.ShopClient()
	if err != nil {
		return err
	}
	groups := opts.Groups
	if len(groups) == 0 {
		groups = mirror.Groups
	}
	groups = slices.Compact(slices.SortedFunc(slices.Values(groups), func(a, b string) int {
		return slices.Index(mirror.Groups, a) - slices.Index(mirror.Groups, b)
	}))
	mode, err := syncMode(s, opts.Wait)
	if err != nil {
		return err
	}
	db, err := opts.Mirror(ctx, mode)
	if held := leaseHolder(err); held != nil {
		return answerAsIs(ctx, opts, s, held, groups)
	}
	if err != nil {
		return mirrorutil.ReaderRefused(ctx, opts.MirrorDeps, err)
	}
	defer db.Close()
	rep := mirrorutil.NewSyncReporter(opts.IO, opts.Progress(), c.PaceLeft, s.Quiet)
	results, err := db.Sync(ctx, c, groups, mirror.SyncOptions{Full: opts.Full, Details: opts.Details, Refresh: refresh, Report: rep})
	opts.Progress().Stop()
	if err != nil {
		return stopped(opts.IO.ErrOut, results, mirrorutil.MirrorError(err))
	}
	if !p.IsTable() {
		return p.List(resultItems(results), nil)
	}
	if !s.Quiet {
		for _, r := range results {
			fmt.Fprintln(opts.IO.ErrOut, "✓ "+summary(r))
		}
	}
	for _, r := range results {
		if len(r.Odd) > 0 {
			fmt.Fprintln(opts.IO.ErrOut, "warning: "+oddRows(r.Noun, r.Odd))
		}
		notUTF8(opts.IO.ErrOut, r)
	}
	return detailFailures(results, s)
}

// summary says what a pass did: "submissions: full pass, 7 pages, 100 new,
// 0 changed, 0 gone".
func summary(r mirror.PassResult) string {
	kind := r.Kind + " pass"
	if r.Resumed {
		kind = "continued " + kind
	}
	parts := []string{kind, output.Plural(r.Requests, "page"), fmt.Sprintf("%d new", r.New), fmt.Sprintf("%d changed", r.Changed)}
	if r.Kind == mirror.Full {
		parts = append(parts, fmt.Sprintf("%d gone", r.Gone))
	}
	if d := r.Details; d.Requests > 0 || d.Due > 0 {
		parts = append(parts, detailSummary(d))
	} else if d.Fetched > 0 || len(d.Failed) > 0 {
		parts = append(parts, output.Plural(d.Fetched, "detail")+" fetched")
	}
	line := r.Noun + ": " + strings.Join(parts, ", ")
	if w := r.Walk; w.Changed() && r.Kind == mirror.Full {
		line += " (" + output.ListChanged(w.FirstTotal, w.LastTotal, "", "row stored", 0) + ")"
	}
	return line
}

// detailFailures is exit 5 naming the rows whose detail the server refused.
func detailFailures(results []mirror.PassResult, s *config.Settings) error {
	var failed []string
	for _, r := range results {
		for _, id := range r.Details.Failed {
			failed = append(failed, r.Noun+" "+id)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return exitcode.WithHint(exitcode.Partial,
		fmt.Errorf("the server refused the detail of %s: %s", output.Plural(len(failed), "row"), output.FirstAndMore(failed[:min(len(failed), 20)], len(failed))),
		"they were probably deleted since the list was read; `storectl mirror sync --full` marks deleted rows gone")
}

// stopped says what an interrupted or failed sync kept: the list's rows
// and the details stored (each committed as it arrived; one in flight is
// lost).
func stopped(w io.Writer, results []mirror.PassResult, err error) error {
	for _, r := range results {
		var kept []string
		if r.Requests > 0 || r.New > 0 {
			kept = append(kept, fmt.Sprintf("%d new and %d changed rows from %s", r.New, r.Changed, output.Plural(r.Requests, "page")))
		}
		again := "`storectl mirror sync`"
		if d := r.Details; d.Requests > 0 || d.Fetched > 0 {
			kept = append(kept, output.Plural(d.Fetched, "detail"))
			again = "`storectl mirror sync --details`"
		}
		if len(kept) > 0 {
			fmt.Fprintf(w, "%s: kept %s; %s continues from there\n", r.Noun, strings.Join(kept, ", and "), again)
		}
	}
	return err
}

// oddRows names the rows whose id is not a 64-bit integer, kept as sent
// outside the tables the answers read.
func oddRows(noun string, ids []string) string {
	return fmt.Sprintf("%s: %s whose id is not a 64-bit integer kept as sent in the table odd_rows, outside bis find, bis demand and the offline export: ids %s",
		noun, output.Plural(len(ids), "row"), mirrorutil.QuotedIDs(ids))
}

// notUTF8 names, a line each, the list items, details and form fields of
// a pass that were not UTF-8 (which JSON is), kept in the mirror with
// U+FFFD in place of those bytes.
func notUTF8(w io.Writer, r mirror.PassResult) {
	for _, kind := range []struct {
		noun, what string
		ids        []string
	}{
		{r.Noun, "row", r.Repaired},
		{r.Noun, "detail", r.Details.Repaired},
		{"back-in-stock form", "field", r.FormRepaired},
	} {
		if len(kind.ids) > 0 {
			fmt.Fprintln(w, "warning: "+mirrorutil.NotUTF8(kind.noun, kind.what, kind.ids))
		}
	}
}
