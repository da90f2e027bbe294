package bulk

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/httpx"
	"github.com/storectl/storectl/internal/output"
)

// Item is one write of a bulk run: a row of the input, or a batch.
type Item struct {
	Row  int    // 1-based, as the journal and the messages name it
	Key  string // RowKey of what the item sends: an edited row is another row
	Name string // how results name it (an e-mail, a rule's name)
	// Ref, when set, fills the journal's id column of its pending and
	// failed lines (a delete batch's ids).
	Ref string
	// Send makes the request. Its error is the server's refusal, or no
	// clear answer (see Runner.Refused).
	Send func(ctx context.Context) (Done, error)
	// Recover, when set, runs for an item an earlier run sent without
	// learning the outcome (its journal line is still pending): it looks
	// for what that request did, so that it is not done twice. sentAt is
	// when that request left (zero when unknown).
	Recover func(ctx context.Context, sentAt time.Time) (Done, bool, error)
}

// Done is what a write achieved.
type Done struct {
	Outcome Outcome // Created, Updated or Deleted
	ID      string
	Message string
}

// Result is one item's line of output.
type Result struct {
	Item    *Item
	Outcome Outcome
	ID      string
	Message string
	Err     error // the failure, for Failed
}

// Runner runs items one by one, at the pace the transport allows, keeping
// the journal: a pending line as each request leaves, its outcome after.
type Runner struct {
	Journal *Journal
	// Emit receives every item's result as it is known.
	Emit func(Result) error
	// Refused reports an error that says the server did not act (its
	// refusal, a rejected token, throttling): the item failed. Any other
	// error leaves open whether it acted; the item stays pending for
	// --resume to check.
	Refused func(error) bool
	// Fatal reports an error that every later item would meet too (a
	// rejected token): the run stops.
	Fatal func(error) bool
	// Message is what the journal and output say of a failure.
	Message func(error) string
	// Count, when set, counts a result in the tally in place of its
	// outcome (comingsoon apply counts the rules a request changed).
	Count func(Result, Tally)
	// Progress shows "row n/m · ETA"; PaceLeft is the least time n more
	// requests take under the rate limit (nil: unpaced).
	Progress *output.Progress
	PaceLeft func(n int) time.Duration
	// Noun names the items in the summary ("rules", "rows"); Counted names
	// what the tally counts when Count counts something else.
	Noun, Counted string
	// TallyLabel, when set, leads the tally line ("batches: 2 deleted").
	TallyLabel string
	// ErrOut receives the summary of an interrupted or stopped run.
	ErrOut io.Writer
	// ResumeCommand is the command line that continues the run.
	ResumeCommand string
	// Words are the command's advice (see Words).
	Words Words
	Now   func() time.Time
	// Replanned marks items worked out afresh by every run from the
	// store's current state (comingsoon apply's plan) rather than read
	// from an input file: what an earlier run did is already in the store,
	// so nothing is skipped as done and total counts only what is left;
	// an item is known by its Key alone (its Row only numbers this run's
	// lines), so an earlier run's pending line is found whatever row the
	// item has now.
	Replanned bool

	tally Tally
	// finished counts the items done, failed or skipped, for "stopped
	// after n of m".
	finished int
	// created holds the first maxListed ids created, for the summary of
	// an interrupted run; the tally counts them all.
	created  []string
	failures []string // the distinct failure messages, the first few
}

// Tally is what the run did so far.
func (r *Runner) Tally() Tally {
	if r.tally == nil {
		r.tally = Tally{}
	}
	return r.tally
}

// Run does every item, in order, as each yields them (reading the input
// again, so memory stays flat however many rows); total is how many there
// are. It stops early only when going on is pointless (Fatal) or the user
// interrupted; either way it says what was done and how to continue, and
// returns the error.
func (r *Runner) Run(ctx context.Context, total int, each func(yield func(*Item) error) error) error {
	r.Tally()
	if r.Now == nil {
		r.Now = time.Now
	}
	todo := total
	if !r.Replanned {
		todo = max(total-r.Journal.done.count(), 0)
	}
	r.estimate(todo)
	start, sent := time.Now(), 0
	err := each(func(it *Item) error {
		if skipped, err := r.skipDone(it); skipped || err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		r.showProgress(sent, todo, start)
		sent++
		return r.one(ctx, it)
	})
	if err != nil {
		return r.stopped(err, total)
	}
	r.Progress.Stop()
	return r.Journal.finish()
}

// skipDone passes over an item an earlier run finished, as its journal
// says; a replanned run has none.
func (r *Runner) skipDone(it *Item) (bool, error) {
	if r.Replanned {
		return false, nil
	}
	done, err := r.Journal.Done(it.Row, it.Key)
	if err != nil || !done {
		return false, err
	}
	return true, r.record(Result{Item: it, Outcome: Skipped, Message: "done in an earlier run (see the report)"})
}

func (r *Runner) showProgress(sent, todo int, start time.Time) {
	var paceLeft time.Duration
	if r.PaceLeft != nil {
		paceLeft = r.PaceLeft(todo - sent)
	}
	r.Progress.Update(fmt.Sprintf("%s %s", r.noun(), output.FormatETA(sent, todo, time.Since(start), paceLeft)))
}

// estimate says before long work starts how long the pace makes it.
func (r *Runner) estimate(todo int) {
	if r.PaceLeft == nil || r.ErrOut == nil {
		return
	}
	if d := r.PaceLeft(todo); d >= time.Minute {
		fmt.Fprintf(r.ErrOut, "%d requests to send; at the shop API's rate limit that takes at least %s\n", todo, d.Round(time.Second))
	}
}

// one does an item: recovering what an interrupted run did, or sending.
// It returns an error only when the run must stop.
func (r *Runner) one(ctx context.Context, it *Item) error {
	if found, err := r.recovered(ctx, it); found || err != nil {
		return err
	}
	line := &sendLine{journal: r.Journal, item: it, now: r.Now}
	d, err := it.Send(httpx.BeforeSend(ctx, line.sent))
	switch {
	case err == nil:
		return r.succeeded(it, d)
	case line.err != nil:
		return line.err // the journal could not say the request was going
	case ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
		// Sent: the row stays pending, the request may have arrived. Not
		// sent (interrupted while waiting for the pace): nothing to record.
		return err
	}
	return r.failed(it, err, line.stamp())
}

// recovered looks for what an interrupted run did with an item it sent
// without learning the outcome (its journal line is still pending).
func (r *Runner) recovered(ctx context.Context, it *Item) (bool, error) {
	entry, pending := r.Journal.Pending(it.Row, it.Key)
	if r.Replanned {
		entry, pending = r.Journal.PendingKey(it.Key)
	}
	if !pending || it.Recover == nil {
		return false, nil
	}
	d, found, err := it.Recover(ctx, sentAt(entry.Message))
	if err != nil || !found {
		return false, err
	}
	return true, r.succeeded(it, d)
}

// sendLine writes an item's pending line once, as its request leaves
// (after any wait for the pace): the journal says "sent" only of a
// request that went, and says it before an answer could come, so that a
// resumed run knows to check before sending again.
type sendLine struct {
	journal *Journal
	item    *Item
	now     func() time.Time
	at      string // "sent at …", once written
	err     error
}

func (l *sendLine) sent() error {
	if l.at != "" {
		return nil // a retry of the same item
	}
	l.at = "sent at " + l.now().UTC().Format(time.RFC3339)
	l.err = l.journal.Record(Entry{Row: l.item.Row, Key: l.item.Key, Outcome: Pending, ID: l.item.Ref, Message: l.at})
	return l.err
}

// stamp is the pending line's "sent at …", or now when the item's Send
// made no request through the transport.
func (l *sendLine) stamp() string {
	if l.at == "" {
		return "sent at " + l.now().UTC().Format(time.RFC3339)
	}
	return l.at
}

// failed records an item's failure: refused (the server did nothing), or
// without a clear answer (pending, for --resume to check).
func (r *Runner) failed(it *Item, err error, sent string) error {
	res := Result{Item: it, Outcome: Failed, Message: r.Message(err), Err: err}
	if len(r.failures) < 3 && !slices.Contains(r.failures, res.Message) {
		r.failures = append(r.failures, res.Message)
	}
	line := Entry{Row: it.Row, Key: it.Key, Outcome: Failed, ID: it.Ref, Message: res.Message}
	if !r.Refused(err) {
		res.Message = "no clear answer (" + res.Message + ")"
		if r.Words.Unclear != "" {
			res.Message += "; " + r.Words.Unclear
		}
		line = Entry{Row: it.Row, Key: it.Key, Outcome: Pending, ID: it.Ref, Message: sent + "; " + res.Message}
	}
	if jerr := r.Journal.Record(line); jerr != nil {
		return jerr
	}
	if err := r.record(res); err != nil {
		return err
	}
	if r.Fatal != nil && r.Fatal(err) {
		return err
	}
	return nil
}

func (r *Runner) succeeded(it *Item, d Done) error {
	if d.Outcome == Created && len(r.created) < maxListed {
		r.created = append(r.created, d.ID)
	}
	if err := r.Journal.Record(Entry{Row: it.Row, Key: it.Key, Outcome: d.Outcome, ID: d.ID, Message: d.Message}); err != nil {
		return err
	}
	return r.record(Result{Item: it, Outcome: d.Outcome, ID: d.ID, Message: d.Message})
}

// record counts an item's result and emits it.
func (r *Runner) record(res Result) error {
	r.finished++
	if r.Count != nil {
		r.Count(res, r.tally)
	} else {
		r.tally.Add(res.Outcome)
	}
	return r.Emit(res)
}

// stopped says, on any interruption, what was done and how to go on: the
// journal holds every row, so --resume repeats nothing.
func (r *Runner) stopped(err error, total int) error {
	r.Progress.Stop()
	if r.ErrOut == nil {
		return err
	}
	did := r.tally.String()
	if r.finished == 0 {
		did = "nothing was sent"
	}
	fmt.Fprintf(r.ErrOut, "stopped after %d of %d %s: %s\n", r.finished, total, r.noun(), did)
	if len(r.created) > 0 {
		fmt.Fprintf(r.ErrOut, "created: %s\n", createdIDs(r.created, r.tally[Created]))
	}
	fmt.Fprintf(r.ErrOut, "journal: %s\n", r.Journal.Path())
	if r.ResumeCommand != "" {
		fmt.Fprintf(r.ErrOut, "to continue without repeating anything: %s\n", r.ResumeCommand)
	}
	return err
}

func (r *Runner) noun() string {
	if r.Noun == "" {
		return "rows"
	}
	return r.Noun
}

// createdIDs lists the ids kept (the first of them), then how many more
// of total the journal names.
func createdIDs(kept []string, total int) string {
	if total <= len(kept) {
		return output.FirstAndMore(kept, total)
	}
	return output.FirstAndMore(kept, total) + " (see the journal)"
}

// sentAt reads the time from a pending line's message ("sent at
// 2026-10-01T07:00:00Z…"); zero when there is none.
func sentAt(message string) time.Time {
	rest, ok := strings.CutPrefix(message, "sent at ")
	if !ok {
		return time.Time{}
	}
	stamp, _, _ := strings.Cut(rest, ";")
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(stamp))
	if err != nil {
		return time.Time{}
	}
	return t
}

// Finish prints the tally (unless quiet) and returns the run's exit
// status (see Verdict).
func (r *Runner) Finish(quiet bool, allFailedCode int) error {
	// -q keeps a successful run silent; a failure is always told.
	if !quiet || r.tally[Failed] > 0 {
		label := ""
		if r.TallyLabel != "" {
			label = r.TallyLabel + ": "
		}
		fmt.Fprintln(r.ErrOut, label+r.tally.String())
	}
	return r.Verdict(allFailedCode)
}

// Verdict is the run's exit status: nil when nothing failed, exit 5 when
// some items failed, allFailedCode (3 for deletes, 5 elsewhere) when every
// attempted item failed. The error carries the server's messages, for
// scripts that read only stderr.
func (r *Runner) Verdict(allFailedCode int) error {
	failed := r.tally[Failed]
	if failed == 0 {
		return nil
	}
	where := "see " + r.Journal.Path()
	if r.Words.Retry != "" {
		where += "; " + r.Words.Retry
	}
	attempted := r.tally.attempted()
	code := exitcode.Partial
	if failed == attempted {
		code = allFailedCode
	}
	msg := fmt.Sprintf("%d of %d %s failed", failed, attempted, cmp.Or(r.Counted, r.noun()))
	if len(r.failures) > 0 {
		msg += ": " + strings.Join(r.failures, "; ")
	}
	return exitcode.WithHint(code, errors.New(msg), where)
}
