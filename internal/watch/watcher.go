package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/mirror"
)

// Watcher watches one store: a cycle every Every (the mirror's sync of
// Groups, then the rules' dates and the alerts), and the delivery of the
// outbox's events, in order, to Sinks.
type Watcher struct {
	DB     *mirror.DB
	Client *shop.Client // paced on its share of the token's budget
	Groups []string     // in the mirror's sync order
	Every  time.Duration
	// FullEvery reads every page of a list whose last full pass is older
	// (it finds what left: submission.gone, rule.deleted); one-page lists
	// are always read in full.
	FullEvery time.Duration
	// Details refreshes the submissions' details each cycle (within
	// Share of the budget, ending by the next cycle): the first opens and
	// clicks they show become submission.opened and submission.clicked.
	Details bool
	Share   float64
	Once    bool      // one cycle, deliver what is pending, return
	Since   time.Time // a first watch of a list replays its changes since then
	Alerts  []mirror.Alert
	Sinks   []Sink
	Retry   Retry
	// Profile and Store are each event's "profile" and "store".
	Profile, Store string
	// Log receives a line per notable thing (nil: nothing); Heartbeat a
	// line per cycle (--debug; nil: none).
	Log, Heartbeat io.Writer
	// Advice is the command's words for what to do about parked events.
	Advice Advice
	// FirstSync hears how a list's first watch syncs it, which on a new
	// mirror reads every page (nil: nobody): a person sees its progress
	// as an export's, not a silence of minutes.
	FirstSync FirstSyncReporter

	jitter func(time.Duration) time.Duration
	wake   chan struct{}
	mu     sync.Mutex // the log lines and stats
	stats  stats
}

// Advice says, in the command's terms, how to see and resend parked
// events: the engine names no command. Empty words leave a line without.
type Advice struct {
	// ResendOne sends the parked event id again.
	ResendOne func(id string) string
	// Parked is the hint of a run that parked events.
	Parked string
}

// FirstSyncReporter is told of a first watch's sync, then that it is over.
type FirstSyncReporter interface {
	mirror.Reporter
	Done()
}

// stats are what the heartbeat and the summary say.
type stats struct {
	cycles, requests, delivered, parked int
}

// Run watches until ctx ends (a clean stop: the event in flight is
// delivered first, nil is returned) or, with Once, one cycle is done and
// every pending event delivered or parked. A destination that takes no
// more events (*StopError) and a failure that a next cycle would meet
// again (the token refused, the mirror damaged) end it with an error.
func (w *Watcher) Run(ctx context.Context) error {
	w.init()
	if w.Once {
		if err := w.cycle(ctx); err != nil {
			return stopped(ctx, err)
		}
		err := w.deliverPending(ctx, true)
		w.sayDelivered()
		return stopped(ctx, err)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	var deliverErr error
	wg.Go(func() {
		if err := w.deliverPending(ctx, false); err != nil && ctx.Err() == nil {
			deliverErr = err
			cancel(err)
		}
	})
	err := w.loop(ctx)
	cancel(err)
	wg.Wait()
	if deliverErr != nil {
		return deliverErr
	}
	return stopped(ctx, err)
}

func (w *Watcher) init() {
	if w.jitter == nil {
		w.jitter = halfJitter
	}
	w.wake = make(chan struct{}, 1)
	if w.Retry == (Retry{}) {
		w.Retry = DefaultRetry
	}
}

// stopped is nil for the end of a watch that was asked to stop.
func stopped(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil && errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// loop runs a cycle every Every until ctx ends or a cycle fails for good.
func (w *Watcher) loop(ctx context.Context) error {
	for {
		start := time.Now()
		if err := w.cycle(ctx); err != nil {
			if ctx.Err() != nil || !transient(err) {
				return err
			}
			w.logf("cycle failed: %v; trying again in %s", err, w.Every)
		}
		next := start.Add(w.Every)
		w.heartbeat(next)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Until(next)):
		}
	}
}

// sayDelivered ends a --once run with the count of the events it
// delivered: what the first-watch lines announced, and any a previous run
// left pending.
func (w *Watcher) sayDelivered() {
	w.mu.Lock()
	n := w.stats.delivered
	w.mu.Unlock()
	names := make([]string, len(w.Sinks))
	for i, s := range w.Sinks {
		names[i] = s.String()
	}
	w.logf("delivered %s to %s", countOf(n, "event"), strings.Join(names, " and "))
}

func (w *Watcher) logf(format string, args ...any) {
	if w.Log == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	fmt.Fprintf(w.Log, format+"\n", args...)
}

// heartbeat says, at --debug, that the watcher is alive and how it goes.
func (w *Watcher) heartbeat(next time.Time) {
	if w.Heartbeat == nil {
		return
	}
	pending, parked, _ := w.DB.OutboxCounts(context.Background())
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.stats
	fmt.Fprintf(w.Heartbeat, "watch heartbeat %s: profile %s, cycle %d, %d list requests, %d events delivered, %d pending, %d parked; next cycle at %s\n",
		time.Now().UTC().Format(time.RFC3339), w.Profile, s.cycles, s.requests, s.delivered, pending, parked, next.UTC().Format(time.RFC3339))
}
