package mirror

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A pass ends only in its turn: with every turn taken, a sync reads and
// stores its pages but waits to end its pass, which stays open (a later
// run continues it), and stopping it then loses nothing.
func TestPassEndsTakeTurns(t *testing.T) {
	w := newWorld(t, 30)
	var held []func()
	for range cap(passEnds) {
		release, err := takePassEnd(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, release)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := w.db.Sync(ctx, w.client, []string{"bis"}, SyncOptions{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a sync with every pass end's turn taken: %v, want it waiting until stopped", err)
	}
	if n := w.count("SELECT count(*) FROM submissions"); n != 30 {
		t.Fatalf("%d rows stored while waiting to end the pass, want 30", n)
	}
	for _, release := range held {
		release()
	}
	w.reopen()
	w.sync(SyncOptions{}, "bis")
	if n := w.count("SELECT count(*) FROM submissions"); n != 30 {
		t.Errorf("%d rows once the turn came, want 30", n)
	}
}
