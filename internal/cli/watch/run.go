package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/ruleform"
	"github.com/storectl/storectl/internal/watch"
)

func runWatch(ctx context.Context, opts *Options) error {
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	w, err := opts.watcher(s)
	if err != nil {
		return err
	}
	lock, err := lockProfile(s)
	if err != nil {
		return err
	}
	defer lock.release()
	c, err := opts.ShopClient()
	if err != nil {
		return err
	}
	w.Client = c.WithShare(float64(opts.Share) / 100)
	w.FirstSync = firstSyncProgress{mirrorutil.NewSyncReporter(opts.IO, opts.Progress(), w.Client.PaceLeft, s.Quiet), opts.Progress().Stop}
	db, err := opts.Mirror(ctx, mirror.Write)
	if err != nil {
		return mirrorutil.ReaderRefused(ctx, opts.MirrorDeps, mirrorutil.MirrorError(err))
	}
	defer db.Close()
	w.DB = db
	if !s.Quiet && !opts.Once {
		fmt.Fprintf(opts.IO.ErrOut, "watching profile %q (%s) every %s on %d%% of the token's request budget; events to %s\n",
			s.Profile, strings.Join(w.Groups, ", "), opts.Every, opts.Share, destinations(w.Sinks))
	}
	err = w.Run(ctx)
	opts.Progress().Stop()
	if ctx.Err() != nil && err == nil && !s.Quiet {
		sayStopped(ctx, opts.IO.ErrOut, db)
	}
	return watchError(err)
}

// advice is what the engine says about parked events, in this command's
// terms.
var advice = watch.Advice{
	ResendOne: func(id string) string { return "`storectl watch events resend " + id + "`" },
	Parked:    "`storectl watch events --failed` lists them; `storectl watch events resend --failed` sends them again",
}

// watchError words the engine's errors: a receiver that takes no more
// events leaves them pending for a later watch.
func watchError(err error) error {
	var stop *watch.StopError
	if errors.As(err, &stop) && stop.Gone && exitcode.HintOf(err) == "" {
		return exitcode.WithHint(stop.Code, err, "`storectl watch` sends them once a receiver takes them")
	}
	return mirrorutil.MirrorError(err)
}

// firstSyncProgress shows a first watch's sync as mirror sync and bis
// export show theirs (page n/N and an ETA on a terminal, why a pass reads
// every page on stderr), and clears the line once it is over.
type firstSyncProgress struct {
	*mirrorutil.SyncReporter
	stop func()
}

func (p firstSyncProgress) Done() { p.stop() }

// watcher is the engine set up from the options and settings, without its
// client and mirror.
func (o *Options) watcher(s *config.Settings) (*watch.Watcher, error) {
	if s.Offline {
		return nil, exitcode.UsageError("storectl watch asks the store, and --offline sends nothing: drop --offline")
	}
	if err := o.checkOutput(s); err != nil {
		return nil, err
	}
	if err := o.check(); err != nil {
		return nil, err
	}
	w := &watch.Watcher{Groups: o.groups(), Every: o.Every, FullEvery: o.fullEvery(), Once: o.Once,
		Details: o.Details, Share: float64(o.Share) / 100,
		Profile: s.Profile, Store: s.MirrorStore()}
	var err error
	if w.Since, err = o.since(); err != nil {
		return nil, err
	}
	for _, a := range o.Alerts {
		alert, err := parseAlert(a)
		if err != nil {
			return nil, err
		}
		w.Alerts = append(w.Alerts, alert)
	}
	if w.Retry, err = o.retry(); err != nil {
		return nil, err
	}
	if w.Sinks, err = o.sinks(); err != nil {
		return nil, err
	}
	w.Advice = advice
	if !s.Quiet {
		w.Log = o.IO.ErrOut
	}
	if s.Debug {
		w.Heartbeat = o.IO.ErrOut
	}
	return w, nil
}

// checkOutput: watch prints events as NDJSON whatever -o says, and takes
// no --jq or --fields (its output is a stream to pipe).
func (o *Options) checkOutput(s *config.Settings) error {
	switch {
	case s.JQ != "":
		return exitcode.UsageHint(fmt.Errorf("--jq does not apply to storectl watch"), "pipe its NDJSON instead: storectl watch | jq -c 'select(.type == \"submission.created\")'")
	case len(s.Fields) > 0:
		return exitcode.UsageHint(fmt.Errorf("--fields does not apply to storectl watch"), "pipe its NDJSON to jq to keep some keys")
	}
	switch flag, _ := s.OutputFlag(); flag {
	case "", "table", "json", "ndjson":
		return nil
	default:
		return exitcode.Usagef("storectl watch prints events as NDJSON (one JSON object a line); -o %s does not apply", flag)
	}
}

// fullEvery is --full-every; 0 leaves only the one-page lists read in full.
func (o *Options) fullEvery() time.Duration {
	if o.FullEvery == 0 {
		return 1<<63 - 1
	}
	return o.FullEvery
}

func (o *Options) since() (time.Time, error) {
	if o.Since == "" {
		return time.Time{}, nil
	}
	t, _, err := ruleform.ParseTime(o.Since, time.Local)
	if err != nil {
		return time.Time{}, exitcode.Wrap(exitcode.Usage, fmt.Errorf("--since %w", err))
	}
	return t, nil
}

// sinks are where events go: the webhook and the command given, else
// stdout.
func (o *Options) sinks() ([]watch.Sink, error) {
	var sinks []watch.Sink
	if o.ForwardTo != "" {
		u, err := parseForwardTo(o.ForwardTo)
		if err != nil {
			return nil, err
		}
		secret := o.Secret
		if secret == "" {
			secret = o.Getenv("STORECTL_WEBHOOK_SECRET")
		}
		if secret == "" {
			return nil, exitcode.UsageHint(fmt.Errorf("--forward-to needs a secret to sign the events with"),
				"set STORECTL_WEBHOOK_SECRET (or give --secret S); the receiver checks each request's Storectl-Signature with it (docs/watch.md)")
		}
		hook, err := watch.NewWebhook(u, secret, o.UserAgent, o.DeliverTimeout)
		if err != nil {
			return nil, err
		}
		sinks = append(sinks, hook)
	} else if o.Secret != "" {
		return nil, exitcode.UsageError("--secret signs the webhooks of --forward-to, and there is none: add --forward-to URL or drop --secret")
	}
	if strings.TrimSpace(o.Exec) != "" {
		sinks = append(sinks, watch.NewCommand(o.Exec, o.DeliverTimeout, o.IO.Out, o.IO.ErrOut))
	}
	if len(sinks) == 0 {
		sinks = append(sinks, watch.NewLineSink(o.IO.Out))
	}
	return sinks, nil
}

func destinations(sinks []watch.Sink) string {
	names := make([]string, len(sinks))
	for i, s := range sinks {
		names[i] = s.String()
	}
	return strings.Join(names, " and ")
}

// sayStopped tells a stopped watch's outbox.
func sayStopped(ctx context.Context, w io.Writer, db *mirror.DB) {
	pending, parked, err := watch.OutboxCounts(context.WithoutCancel(ctx), db)
	if err != nil {
		return
	}
	fmt.Fprintf(w, "stopped; %d events pending and %d parked in the outbox (the next storectl watch delivers the pending ones)\n", pending, parked)
}
