package watch

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
)

// EventsOptions are the inputs of `storectl watch events`.
type EventsOptions struct {
	cmdutil.MirrorDeps
	Failed  bool
	Pending bool
	Last    int
}

func newEvents(f *cmdutil.Factory, runF func(*EventsOptions) error) *cobra.Command {
	opts := &EventsOptions{MirrorDeps: f.MirrorDeps()}
	cmd := &cobra.Command{
		Use:   "events [--failed | --pending] [--last N]",
		Short: "List the events of the outbox, or send some again",
		Long: `List the events storectl watch derived, oldest first, with where each one's
delivery stands: pending, delivered (kept 7 days), or parked: its retries ran
out (the last error says why). --failed lists the parked ones, --pending
those waiting. Reads the mirror only: it works while a watch runs.

storectl watch events resend sends events again.`,
		Example: `  storectl watch events --failed
  storectl watch events --last 20 -o json --jq '.[] | {id, type, state}'
  storectl watch events resend --failed`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return cmdutil.UnknownCommand(cmd, args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.Run(cmd.Context(), opts, runF, runEvents)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.Failed, "failed", false, "only the parked events, whose retries ran out")
	fl.BoolVar(&opts.Pending, "pending", false, "only the events waiting to be delivered")
	fl.IntVar(&opts.Last, "last", 50, "the last `N` events (0: all the outbox keeps)")
	cmd.MarkFlagsMutuallyExclusive("failed", "pending")
	return cmd
}

func runEvents(ctx context.Context, opts *EventsOptions) error {
	if opts.Last < 0 {
		return exitcode.Usagef("--last %d: give a number of events, 0 for all", opts.Last)
	}
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	db, err := opts.Mirror(ctx, mirror.ReadOnly)
	if err != nil {
		return mirrorutil.MirrorError(err)
	}
	defer db.Close()
	f := mirror.EventFilter{Last: opts.Last}
	switch {
	case opts.Failed:
		f.State, f.Last = mirror.EventParked, 0
	case opts.Pending:
		f.State = mirror.EventPending
	}
	events, err := db.Events(ctx, f)
	if err != nil {
		return mirrorutil.MirrorError(err)
	}
	items := make([]json.RawMessage, len(events))
	for i, e := range events {
		items[i] = eventJSON(e)
	}
	if len(items) == 0 && p.IsTable() {
		fmt.Fprintln(opts.IO.ErrOut, "no events"+which(opts))
		return nil
	}
	return p.List(items, eventColumns)
}

func which(opts *EventsOptions) string {
	switch {
	case opts.Failed:
		return " parked"
	case opts.Pending:
		return " pending"
	}
	return " in the outbox"
}

// eventItem is what -o json says of an event of the outbox.
type eventItem struct {
	ID          string          `json:"id"`
	Type        string          `json:"type"`
	State       string          `json:"state"`
	Attempts    int             `json:"attempts"`
	OccurredAt  string          `json:"occurred_at"`
	DetectedAt  string          `json:"detected_at"`
	NextAttempt *string         `json:"next_attempt_at"`
	DeliveredAt *string         `json:"delivered_at"`
	LastError   *string         `json:"last_error"`
	Data        json.RawMessage `json:"data"`
}

func eventJSON(e mirror.Event) json.RawMessage {
	item := eventItem{ID: e.ID, Type: e.Type, State: e.State, Attempts: e.Attempts, OccurredAt: stamp(e.OccurredAt),
		DetectedAt: stamp(e.DetectedAt), NextAttempt: optStamp(e.NextAttemptAt), DeliveredAt: optStamp(e.DeliveredAt),
		Data: e.Data}
	if e.LastError != "" {
		item.LastError = &e.LastError
	}
	b, _ := json.Marshal(item)
	return b
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func optStamp(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := stamp(t)
	return &s
}

// eventColumns show when an event occurred as every view shows a time (in
// the user's zone, naming it); on a narrow terminal the attempts, then the
// time, give way, and the last error is cut last: it is what --failed is
// read for.
var eventColumns = func() []output.Column {
	occurred := output.HumanTimeColumn("occurred_at", "OCCURRED", time.Local)
	occurred.Kind, occurred.Drop = output.KindTime, 2
	return []output.Column{
		{Key: "id", Header: "ID"},
		{Key: "type", Header: "TYPE", Min: 12},
		{Key: "state", Header: "STATE", Min: 7},
		{Key: "attempts", Header: "ATTEMPTS", Drop: 1},
		occurred,
		{Key: "last_error", Header: "LAST ERROR", Answer: true},
	}
}()
