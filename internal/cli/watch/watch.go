// Package watch is `storectl watch`: a long-running process that keeps the
// mirror up to date and turns what changed into events, printed as NDJSON,
// forwarded as signed webhooks or handed to a command; and `watch events`,
// the outbox they pass through.
package watch

import (
	"fmt"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/manystores"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/watch"
)

// Options are the inputs of `storectl watch`.
type Options struct {
	cmdutil.MirrorDeps
	UserAgent string
	Groups    []string
	Every     time.Duration
	FullEvery time.Duration
	Once      bool
	Since     string
	ForwardTo string
	Secret    string
	Exec      string
	Alerts    []string
	Details   bool
	Share     int
	// DeliverTimeout bounds one POST or one run of the command; RetryFor
	// how long a failing event is retried before it is parked.
	DeliverTimeout time.Duration
	RetryFor       time.Duration
	// Getenv reads STORECTL_WEBHOOK_SECRET and the test knob
	// STORECTL_WATCH_RETRY_FIRST.
	Getenv func(string) string
}

// New returns `storectl watch` and `storectl watch events`.
func New(f *cmdutil.Factory) *cobra.Command {
	cmd := newWatch(f, nil)
	events := newEvents(f, nil)
	events.AddCommand(newResend(f, nil))
	cmd.AddCommand(manystores.Read(events))
	return manystores.Stream(cmd)
}

func newWatch(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{MirrorDeps: f.MirrorDeps(), UserAgent: f.Build.UserAgent(), Getenv: f.Getenv}
	cmd := &cobra.Command{
		Use:   "watch [bis] [comingsoon] [preorder]",
		Short: "Turn the store's changes into events: NDJSON, signed webhooks or a command",
		Long:  watchHelp,
		Example: `  storectl watch
  storectl watch bis --alert 'pending>=20' --alert 'pending>=50 by product'
  STORECTL_WEBHOOK_SECRET=whsec_… storectl watch --forward-to https://hooks.example.com/storectl
  storectl watch --forward-to http://localhost:3000/hook --secret dev
  storectl watch --exec './notify.sh'
  storectl watch --once --since 2026-11-01 > events.ndjson
  storectl watch --all-profiles --forward-to https://hooks.example.com/storectl`,
		ValidArgs: mirror.Groups,
		Args:      groupArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Groups = args
			return cmdutil.Run(cmd.Context(), opts, runF, runWatch)
		},
	}
	fl := cmd.Flags()
	fl.DurationVar(&opts.Every, "every", time.Minute, "how often to look for changes (a `duration`)")
	fl.BoolVar(&opts.Once, "once", false, "one cycle: look, deliver what is pending, exit (for cron and tests)")
	fl.StringVar(&opts.Since, "since", "", "a first watch also sends the changes since this `date` the mirror can tell (else none: the mirror is the baseline)")
	fl.StringVar(&opts.ForwardTo, "forward-to", "", "POST each event, signed, to this `URL` (https, or http to a loopback host)")
	fl.StringVar(&opts.Secret, "secret", "", "the `secret` that signs the webhooks (default: $STORECTL_WEBHOOK_SECRET)")
	fl.StringVar(&opts.Exec, "exec", "", "run this shell `command` once per event, the event's JSON on its stdin")
	fl.StringArrayVar(&opts.Alerts, "alert", nil, "a demand.threshold event when a variant's pending submissions reach N: `'pending>=N [by product]'` (repeatable)")
	fl.BoolVar(&opts.Details, "details", false, "also re-read the submissions' details each cycle (paced, within --share): first opens and clicks become submission.opened and submission.clicked")
	fl.DurationVar(&opts.FullEvery, "full-every", 24*time.Hour, "read every page of a list at least this often, finding what was deleted (`duration`; 0: only one-page lists)")
	fl.IntVar(&opts.Share, "share", 80, "the `percent` of the token's request budget the watch may use, leaving the rest to other commands")
	fl.DurationVar(&opts.DeliverTimeout, "deliver-timeout", 30*time.Second, "how long one POST or one run of --exec may take (a `duration`)")
	fl.DurationVar(&opts.RetryFor, "retry-for", time.Hour, "retry a failed delivery for this long, then park it (a `duration`; 0: never retry)")
	return cmd
}

// groupArgs accepts the lists the mirror holds.
func groupArgs(cmd *cobra.Command, args []string) error {
	for _, a := range args {
		if !slices.Contains(mirror.Groups, a) {
			return cmdutil.BadValue("watch", a, mirror.Groups, "is not something storectl watches: name bis, comingsoon or preorder (or none, for all three)")
		}
	}
	return nil
}

// check refuses what cannot work before anything is sent.
func (o *Options) check() error {
	switch {
	case o.Every <= 0:
		return exitcode.Usagef("--every %s: give a duration longer than zero, such as 1m", o.Every)
	case o.Share < 1 || o.Share > 100:
		return exitcode.Usagef("--share %d: give a percent from 1 to 100", o.Share)
	case o.DeliverTimeout <= 0:
		return exitcode.Usagef("--deliver-timeout %s: give a duration longer than zero, such as 30s", o.DeliverTimeout)
	case o.RetryFor < 0 || o.FullEvery < 0:
		return exitcode.UsageError("--retry-for and --full-every take a duration of 0 or more")
	case o.Details && !slices.Contains(o.groups(), "bis"):
		return exitcode.UsageHint(fmt.Errorf("--details re-reads back-in-stock submissions, and bis is not watched"),
			"add bis to the lists watched: storectl watch bis …")
	case len(o.Alerts) > 0 && !slices.Contains(o.groups(), "bis"):
		return exitcode.UsageHint(fmt.Errorf("--alert counts pending back-in-stock submissions, and bis is not watched"),
			"add bis to the lists watched: storectl watch bis …")
	}
	return nil
}

// groups are the lists watched, in the mirror's sync order.
func (o *Options) groups() []string {
	if len(o.Groups) == 0 {
		return mirror.Groups
	}
	var out []string
	for _, g := range mirror.Groups {
		if slices.Contains(o.Groups, g) {
			out = append(out, g)
		}
	}
	return out
}

// retry is the delivery's retry schedule: DefaultRetry for --retry-for,
// its first wait scaled by STORECTL_WATCH_RETRY_FIRST (tests).
func (o *Options) retry() (watch.Retry, error) {
	r := watch.DefaultRetry
	r.For = o.RetryFor
	if v := o.Getenv("STORECTL_WATCH_RETRY_FIRST"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return r, exitcode.Usagef("STORECTL_WATCH_RETRY_FIRST=%q: give a duration such as 100ms", v)
		}
		r.First, r.Max = d, min(r.Max, d*300)
	}
	return r, nil
}
