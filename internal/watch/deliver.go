package watch

import (
	"context"
	"fmt"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
)

// deliverPending delivers the outbox's events in order, each to every
// sink, waiting out an event's retry before the next. With once it
// returns when none is pending; else it waits for the cycles' pokes until
// ctx ends.
func (w *Watcher) deliverPending(ctx context.Context, once bool) error {
	for {
		ev, err := w.DB.NextEvent(ctx)
		if err != nil {
			return err
		}
		if ev == nil {
			if once {
				return w.parkedError()
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-w.wake:
			}
			continue
		}
		if wait := time.Until(ev.NextAttemptAt); wait > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
			continue
		}
		if err := w.deliver(ctx, ev); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

// deliver hands one event to every sink and records the outcome. The
// event in flight is finished, and its outcome recorded, even when a stop
// was asked for meanwhile.
func (w *Watcher) deliver(ctx context.Context, ev *mirror.Event) error {
	ctx = context.WithoutCancel(ctx)
	d := Delivery{ID: ev.ID, Type: ev.Type, Body: Encode(*ev, w.Profile, w.Store)}
	for _, s := range w.Sinks {
		if err := s.Deliver(ctx, d); err != nil {
			if isStop(err) {
				return err
			}
			// The cause first: a list of failed events, cut to a terminal's
			// width, still shows why.
			return w.failed(ctx, ev, fmt.Errorf("%w (%s)", err, s))
		}
	}
	if err := w.DB.EventDelivered(ctx, ev.Seq); err != nil {
		return err
	}
	w.mu.Lock()
	w.stats.delivered++
	w.mu.Unlock()
	for _, s := range w.Sinks {
		if _, ok := s.(*LineSink); !ok {
			w.logf("%s %s → %s: delivered", ev.Type, ev.ID, s)
		}
	}
	return nil
}

// failed records a failed attempt: retried later, or parked once the
// retries are spent.
func (w *Watcher) failed(ctx context.Context, ev *mirror.Event, cause error) error {
	now := time.Now()
	first := ev.FirstFailedAt
	if first.IsZero() {
		first = now
	}
	attempts := ev.Attempts + 1
	at, park := w.Retry.next(attempts, first, now, w.jitter)
	if park {
		w.mu.Lock()
		w.stats.parked++
		w.mu.Unlock()
		line := fmt.Sprintf("%s %s parked after %d attempts over %s: %v", ev.Type, ev.ID, attempts, now.Sub(first).Round(time.Second), cause)
		if w.Advice.ResendOne != nil {
			line += "; " + w.Advice.ResendOne(ev.ID) + " sends it again"
		}
		w.logf("%s", line)
		return w.DB.EventParked(ctx, ev.Seq, cause.Error())
	}
	w.logf("%s %s: attempt %d failed: %v; next in %s", ev.Type, ev.ID, attempts, cause, time.Until(at).Round(time.Millisecond))
	return w.DB.EventFailed(ctx, ev.Seq, at, cause.Error())
}

// parkedError is a --once run that had to park events: exit 5, naming how
// to see and resend them.
func (w *Watcher) parkedError() error {
	w.mu.Lock()
	n := w.stats.parked
	w.mu.Unlock()
	if n == 0 {
		return nil
	}
	return exitcode.WithHint(exitcode.Partial, fmt.Errorf("%d events could not be delivered and were parked", n), w.Advice.Parked)
}
