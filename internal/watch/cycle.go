package watch

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
)

// keepDelivered is how long delivered events stay in the outbox: a change
// derived again within it is recognised by its id and not sent twice.
const keepDelivered = 7 * 24 * time.Hour

// cycle brings the watched lists up to date (each page's events recorded
// with it), then records what the clock and the alerts say. A list's
// first watch takes the mirror as the baseline.
func (w *Watcher) cycle(ctx context.Context) error {
	unwatched, err := w.DB.Unwatched(ctx, w.Groups)
	if err != nil {
		return err
	}
	defer w.poke()
	if len(unwatched) > 0 && w.FirstSync != nil {
		defer w.FirstSync.Done()
	}
	start := time.Now()
	for _, g := range w.Groups {
		first := slices.Contains(unwatched, g)
		opts := w.syncOptions(g, first, start)
		if first && w.FirstSync != nil {
			opts.Report = w.FirstSync
		}
		results, err := w.DB.Sync(ctx, w.Client, []string{g}, opts)
		w.countRequests(results)
		if err != nil {
			return err
		}
		replayed := 0
		if first {
			if replayed, err = w.DB.StartWatching(ctx, g, w.Since); err != nil {
				return err
			}
		}
		told, err := w.afterSync(ctx, g)
		if err != nil {
			return err
		}
		if first {
			w.sayFirstWatch(g, replayed+told)
		}
	}
	w.mu.Lock()
	w.stats.cycles++
	w.mu.Unlock()
	return w.DB.PruneEvents(ctx, time.Now().Add(-keepDelivered))
}

// syncOptions are a cycle's for g: a full pass when FullEvery says so
// (never on a first watch, which takes the mirror as it stands); the
// submissions' details, with Details, until the next cycle is due.
func (w *Watcher) syncOptions(g string, first bool, start time.Time) mirror.SyncOptions {
	var opts mirror.SyncOptions
	if !first {
		opts.FullAfter = w.FullEvery
	}
	if w.Details && g == "bis" {
		opts.Details = true
		opts.Refresh = mirror.RefreshOptions{Until: start.Add(w.Every), Share: w.Share}
	}
	return opts
}

// sayFirstWatch says how a list's first watch began: the mirror as the
// baseline, or with the events since --since (replayed, and those the
// clock and the alerts told since then).
func (w *Watcher) sayFirstWatch(g string, events int) {
	if w.Since.IsZero() {
		w.logf("%s: first watch of this list; the mirror as it stands is the baseline, and changes from now on are events", g)
		return
	}
	w.logf("%s: first watch of this list; %s since %s", g, countOf(events, "event"), w.Since.In(time.Local).Format("2006-01-02 15:04:05 MST"))
}

// afterSync records the events the mirror tells without a request: the
// rules whose dates the clock passed, the alerts crossed.
// It returns how many events it recorded.
func (w *Watcher) afterSync(ctx context.Context, g string) (int, error) {
	switch g {
	case "comingsoon":
		return w.DB.ClockEvents(ctx)
	case "bis":
		return w.DB.Alerts(ctx, w.Alerts)
	}
	return 0, nil
}

func (w *Watcher) countRequests(results []mirror.PassResult) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, r := range results {
		w.stats.requests += r.Requests
	}
}

// poke tells the delivery that events may be waiting.
func (w *Watcher) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// transient says whether the next cycle may not meet err again: a network
// failure, a server's bad day. A refused token, a damaged mirror or a
// usage problem stops the watch.
func transient(err error) bool {
	switch exitcode.Of(err) {
	case exitcode.Auth, exitcode.Usage, exitcode.Interrupted:
		return false
	}
	return true
}

// countOf is n with its noun: "1 event", "57 events".
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
