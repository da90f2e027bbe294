package catalog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	api "github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/output"
)

// Retries during the initial sync start soon and back off: a sync that is
// about to end costs half a second, a long one a request every 8 seconds.
const (
	syncFirstDelay = 500 * time.Millisecond
	syncMaxDelay   = 8 * time.Second
)

// syncWaiter retries a call while the store answers that its initial
// product sync is running, for at most limit in all.
type syncWaiter struct {
	limit    time.Duration
	first    time.Duration
	maxDelay time.Duration
	progress func() *output.Progress
	// notice, when non-nil, gets one line when waiting starts: a log has
	// no spinner to show it.
	notice io.Writer
	sleep  func(ctx context.Context, d time.Duration) error
}

func newSyncWaiter(limit time.Duration, progress func() *output.Progress, errOut io.Writer, spinner bool) *syncWaiter {
	w := &syncWaiter{limit: limit, first: syncFirstDelay, maxDelay: syncMaxDelay, progress: progress, sleep: sleepCtx}
	if !spinner {
		w.notice = errOut
	}
	return w
}

// run calls call until it returns anything but a SyncingError, or the
// time is up.
func (w *syncWaiter) run(ctx context.Context, call func() error) error {
	start := time.Now()
	delay := w.first
	for attempt := 1; ; attempt++ {
		err := call()
		var syncing *api.SyncingError
		if !errors.As(err, &syncing) {
			return err
		}
		left := w.limit - time.Since(start)
		if left <= 0 {
			return w.giveUp(syncing)
		}
		if attempt == 1 && w.notice != nil {
			fmt.Fprintf(w.notice, "store is syncing products… retrying for up to %s (--wait-sync)\n", shortDuration(w.limit))
		}
		wait := min(delay, left)
		w.progress().Update(fmt.Sprintf("store is syncing products… retrying in %s", shortDuration(wait)))
		err = w.sleep(ctx, wait)
		w.progress().Update("")
		if err != nil {
			return err
		}
		delay = min(delay*2, w.maxDelay)
	}
}

func (w *syncWaiter) giveUp(syncing *api.SyncingError) error {
	if w.limit == 0 {
		return exitcode.WithHint(exitcode.Failure, syncing,
			"the store's first product sync is running; try again shortly, or let storectl wait with --wait-sync 2m")
	}
	return exitcode.WithHint(exitcode.Failure,
		fmt.Errorf("%w; gave up after waiting %s", syncing, shortDuration(w.limit)),
		"a large store's first sync can take a while: try again later, or wait longer with --wait-sync 10m")
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// shortDuration prints 2m rather than 2m0s, and 1h rather than 1h0m0s.
func shortDuration(d time.Duration) string {
	precision := 100 * time.Millisecond
	if d < time.Second {
		precision = time.Millisecond
	}
	s := d.Round(precision).String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
