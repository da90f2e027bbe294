package mirror

import (
	"context"
	"errors"
	"testing"
	"time"
)

// cancelInPage cancels the sync while its third page is being stored,
// after the page's rows went into the transaction and before it commits
// (the clock is read last when the pass's state is saved).
type cancelInPage struct {
	notices
	db     *DB
	cancel context.CancelFunc
}

func (c *cancelInPage) Step(resource, phase string, done, total int) {
	if phase != "list" || done != 2 {
		return
	}
	calls := 0
	c.db.Now = func() time.Time {
		if calls++; calls == 2 {
			c.cancel()
		}
		return time.Now()
	}
}

// "kept N new rows" counts only what was committed: a sync stopped in the
// middle of storing a page says the rows of the pages before it (today's
// main counted the uncommitted page's rows too), and so does its journal;
// the continued pass then finds the rest.
func TestStoppedSyncCountsOnlyCommittedRows(t *testing.T) {
	w := newWorld(t, 100)
	ctx, cancel := context.WithCancel(context.Background())
	rep := &cancelInPage{db: w.db, cancel: cancel}
	res, err := w.db.Sync(ctx, w.client, []string{"bis"}, SyncOptions{Report: rep})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	stored := w.count("SELECT count(*) FROM submissions")
	if stored != 30 || res[0].New != stored || res[0].Requests != 2 {
		t.Fatalf("stored %d rows; the result says %d new from %d pages", stored, res[0].New, res[0].Requests)
	}
	if n := w.count("SELECT rows_new FROM sync_journal WHERE finished_at IS NULL"); n != stored {
		t.Fatalf("journal says %d new", n)
	}
	w.db.Now = time.Now
	res = w.sync(SyncOptions{}, "bis")
	if !res[0].Resumed || res[0].New != 70 || w.count("SELECT count(*) FROM submissions") != 100 {
		t.Fatalf("continued: %+v", res[0])
	}
}
