package watch

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/sandbox"
)

// A watched submissions list: the detail refresh that first sees a
// customer open and click the restock e-mail records submission.opened
// and submission.clicked, once each, however often the detail is read; the
// opens of rows detailed before the watch began are history, not events.
func TestDetailRefreshRecordsOpenedAndClickedOnce(t *testing.T) {
	w := watchWorld(t, 20, "bis")
	details := func() {
		t.Helper()
		if _, err := w.db.Sync(context.Background(), w.client, []string{"bis"}, mirror.SyncOptions{Details: true, FullAfter: time.Nanosecond}); err != nil {
			t.Fatal(err)
		}
	}
	details()
	id := w.pendingID()
	w.sendRestock(id)
	w.engage(id, func(s *sandbox.Submission) { s.Opened, s.Clicked = "2026-11-20 10:00:00", "2026-11-20 10:05:00" })
	details()
	details()
	row := strconv.FormatInt(id, 10)
	want := []string{SubmissionSent + " " + row, SubmissionOpened + " " + row, SubmissionClicked + " " + row}
	if got := w.events(); !slices.Equal(got, want) {
		t.Fatalf("events %q, want %q", got, want)
	}
}

// pendingID is a submission the server holds as pending.
func (w *world) pendingID() int64 {
	w.t.Helper()
	var id int64
	err := w.store.View(func(st *sandbox.State) error {
		for _, s := range st.Submissions {
			if s.Status == 0 {
				id = s.ID
				return nil
			}
		}
		return nil
	})
	if err != nil || id == 0 {
		w.t.Fatalf("no pending submission: %v", err)
	}
	return id
}

// engage changes a submission's engagement on the server without moving
// its updated_at, as an open often does not.
func (w *world) engage(id int64, change func(*sandbox.Submission)) {
	w.t.Helper()
	err := w.store.Update(func(st *sandbox.State) error {
		for i := range st.Submissions {
			if st.Submissions[i].ID == id {
				change(&st.Submissions[i])
			}
		}
		return nil
	})
	if err != nil {
		w.t.Fatal(err)
	}
}
