package mirror

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// Freshness answers what NeedsSync and Age answer, in each state a mirror
// goes through: never synced, a first pass interrupted, synced, refreshed.
func TestFreshnessIsNeedsSyncAndAge(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, 40)
	groups := []string{"bis"}
	check := func(state string) {
		t.Helper()
		wantMissing, err := w.db.NeedsSync(ctx, groups)
		if err != nil {
			t.Fatal(err)
		}
		wantAge, err := w.db.Age(ctx, groups)
		if err != nil {
			t.Fatal(err)
		}
		missing, age, err := w.db.Freshness(ctx, groups)
		if err != nil || !slices.Equal(missing, wantMissing) || !age.Equal(wantAge) {
			t.Fatalf("%s: Freshness %v, %v, %v; want %v, %v", state, missing, age, err, wantMissing, wantAge)
		}
		// A reader answers the same for every group, from what its open
		// read (PostgreSQL: with its check), then from the mirror.
		if wantMissing, err = w.db.NeedsSync(ctx, Groups); err != nil {
			t.Fatal(err)
		}
		if wantAge, err = w.db.Age(ctx, Groups); err != nil {
			t.Fatal(err)
		}
		reader, err := Open(ctx, w.backend(), w.options(ReadOnly, "https://sandbox.test"))
		if err != nil {
			t.Fatal(err)
		}
		defer reader.Close()
		for range 2 {
			missing, age, err := reader.Freshness(ctx, Groups)
			if err != nil || !slices.Equal(missing, wantMissing) || !age.Equal(wantAge) {
				t.Fatalf("%s: a reader's Freshness %v, %v, %v; want %v, %v", state, missing, age, err, wantMissing, wantAge)
			}
		}
	}
	check("never synced")
	cctx, cancel := context.WithCancel(ctx)
	if _, err := w.db.Sync(cctx, w.client, groups, SyncOptions{Report: &cancelInPage{db: w.db, cancel: cancel}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	check("a first pass interrupted")
	w.reopen()
	w.sync(SyncOptions{}, "bis")
	check("synced")
	w.sync(SyncOptions{}, "bis")
	check("refreshed")
	if missing, age, _ := w.db.Freshness(ctx, groups); len(missing) != 0 || age.IsZero() {
		t.Fatalf("a synced mirror: missing %v, age %v", missing, age)
	}
}
