package mirror

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/sandbox"
)

// watchWorld is a world whose groups are synced once and watched.
func watchWorld(t *testing.T, submissions int, groups ...string) *world {
	t.Helper()
	w := newWorld(t, submissions)
	w.sync(SyncOptions{}, groups...)
	for _, g := range groups {
		if _, err := w.db.StartWatching(context.Background(), g, time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// events lists the outbox as "type row" lines, in order.
func (w *world) events() []string {
	w.t.Helper()
	evs, err := w.db.Events(context.Background(), EventFilter{})
	if err != nil {
		w.t.Fatal(err)
	}
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Type + " " + e.RowID
	}
	return out
}

// sendRestock marks submissions sent, as the store's restock e-mail does.
func (w *world) sendRestock(ids ...int64) {
	w.t.Helper()
	now := time.Now().UTC()
	err := w.store.Update(func(st *sandbox.State) error {
		for i := range st.Submissions {
			if slices.Contains(ids, st.Submissions[i].ID) {
				st.Submissions[i].Status, st.Submissions[i].LastSent, st.Submissions[i].UpdatedAt = 1, &now, now
			}
		}
		return nil
	})
	if err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) newestSubmissionIDs(n int) []int64 {
	w.t.Helper()
	var out []int64
	_ = w.store.View(func(st *sandbox.State) error {
		for i := len(st.Submissions) - 1; i >= 0 && len(out) < n; i-- {
			out = append(out, st.Submissions[i].ID)
		}
		return nil
	})
	return out
}

func TestAnUnwatchedMirrorRecordsNoEvents(t *testing.T) {
	w := newWorld(t, 30)
	w.sync(SyncOptions{}, "bis")
	if err := sandbox.AddSubmissions(w.store, 3, time.Now()); err != nil {
		t.Fatal(err)
	}
	w.sync(SyncOptions{Full: true}, "bis")
	if got := w.events(); len(got) != 0 {
		t.Fatalf("an unwatched mirror recorded %v", got)
	}
}

// The first watch takes the mirror as it is: no history; then every change
// is an event, once, oldest first, whoever syncs.
func TestWatchedChangesBecomeEventsOnce(t *testing.T) {
	w := watchWorld(t, 30, "bis")
	if got := w.events(); len(got) != 0 {
		t.Fatalf("the baseline recorded %v", got)
	}
	if err := sandbox.AddSubmissions(w.store, 3, time.Now()); err != nil {
		t.Fatal(err)
	}
	w.sync(SyncOptions{}, "bis")
	ids := w.newestSubmissionIDs(3)
	want := []string{"submission.created " + fmt.Sprint(ids[2]), "submission.created " + fmt.Sprint(ids[1]), "submission.created " + fmt.Sprint(ids[0])}
	if got := w.events(); !slices.Equal(got, want) {
		t.Fatalf("after 3 new: %v, want %v", got, want)
	}
	w.sendRestock(ids[1])
	w.sync(SyncOptions{Full: true}, "bis")
	w.sync(SyncOptions{Full: true}, "bis")
	want = append(want, "submission.sent "+fmt.Sprint(ids[1]))
	if got := w.events(); !slices.Equal(got, want) {
		t.Fatalf("after a restock e-mail: %v, want %v", got, want)
	}
	if err := w.store.Update(func(st *sandbox.State) error {
		st.Submissions = slices.DeleteFunc(st.Submissions, func(s sandbox.Submission) bool { return s.ID == ids[2] })
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	w.sync(SyncOptions{}, "bis") // an incremental pass cannot tell a row left
	w.sync(SyncOptions{Full: true}, "bis")
	want = append(want, "submission.gone "+fmt.Sprint(ids[2]))
	if got := w.events(); !slices.Equal(got, want) {
		t.Fatalf("after a deletion: %v, want %v", got, want)
	}
}

// The event of a change has the same id however often it is derived, and
// carries the row as the API sent it.
func TestEventIDsAreStable(t *testing.T) {
	w := watchWorld(t, 20, "bis")
	if err := sandbox.AddSubmissions(w.store, 1, time.Now()); err != nil {
		t.Fatal(err)
	}
	w.sync(SyncOptions{}, "bis")
	evs, _ := w.db.Events(context.Background(), EventFilter{})
	if len(evs) != 1 {
		t.Fatalf("events %v", w.events())
	}
	e := evs[0]
	if want := EventID(storeKey("https://sandbox.test"), SubmissionCreated, e.RowID, ""); e.ID != want || !strings.HasPrefix(e.ID, "evt_") || len(e.ID) != 36 {
		t.Errorf("id %q, want %q", e.ID, want)
	}
	var row map[string]any
	if err := json.Unmarshal(e.Data, &row); err != nil || fmt.Sprint(row["id"]) != e.RowID || row["customer_email"] == nil {
		t.Errorf("data %s", e.Data)
	}
	if e.OccurredAt.IsZero() || e.DetectedAt.Before(e.OccurredAt.Add(-time.Second)) {
		t.Errorf("occurred %v, detected %v", e.OccurredAt, e.DetectedAt)
	}
	// Derived again (a transaction retried, a replay): recorded once.
	ctx := context.Background()
	tx, err := w.db.sql.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.db.recordChanges(ctx, tx, []rowChange{{res: submissions, id: e.RowID, kind: changeNew, after: e.Data}}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := w.events(); len(got) != 1 {
		t.Fatalf("the same change derived twice made %v", got)
	}
}

// A page's events commit with the page or not at all: a sync killed at
// any request leaves an outbox that, once the sync is run again, holds
// every change once.
func TestEventsCommitWithTheirPage(t *testing.T) {
	for _, killAt := range []int{1, 2, 3} {
		t.Run(fmt.Sprint(killAt), func(t *testing.T) {
			w := watchWorld(t, 30, "bis")
			if err := sandbox.AddSubmissions(w.store, 40, time.Now()); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			w.before = killAtRequest(killAt, cancel)
			_, _ = w.db.Sync(ctx, w.client, []string{"bis"}, SyncOptions{})
			w.before = nil
			n := w.count("SELECT count(*) FROM outbox")
			if stored := w.count("SELECT count(*) FROM submissions"); n != stored-30 {
				t.Fatalf("%d events for %d new rows stored", n, stored-30)
			}
			w.reopen()
			w.sync(SyncOptions{}, "bis")
			if n := w.count("SELECT count(DISTINCT row_id) FROM outbox WHERE type = 'submission.created'"); n != 40 {
				t.Fatalf("%d created events after the re-run, want 40", n)
			}
			if n := w.count("SELECT count(*) FROM outbox"); n != 40 {
				t.Fatalf("%d events, want 40", n)
			}
		})
	}
}

func killAtRequest(k int, cancel func()) func(int, *http.Request) {
	return func(n int, _ *http.Request) {
		if n == k+1 {
			cancel()
		}
	}
}

func TestRulesEvents(t *testing.T) {
	// Only the test's own rules: the demo's have fixed dates, and one
	// starting within the hours the clock moves below was an event more
	// (on 27 November 2026 at 02:13 UTC).
	w := newWorld(t, 5)
	if err := w.store.Update(func(st *sandbox.State) error { st.Rules = nil; return nil }); err != nil {
		t.Fatal(err)
	}
	w.sync(SyncOptions{}, "comingsoon")
	if _, err := w.db.StartWatching(context.Background(), "comingsoon", time.Time{}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	now := time.Now().UTC()
	live := createRule(t, w, "live", now.Add(-time.Minute), time.Time{})
	later := createRule(t, w, "later", now.Add(time.Hour), now.Add(2*time.Hour))
	off := createRuleStatus(t, w, "off", now.Add(time.Hour), time.Time{}, 0)
	w.sync(SyncOptions{Full: true}, "comingsoon")
	want := []string{"rule.created " + live, "rule.started " + live, "rule.created " + later, "rule.created " + off}
	if got := w.events(); !slices.Equal(got, want) {
		t.Fatalf("after creating rules: %v, want %v", got, want)
	}
	if n, err := w.db.ClockEvents(ctx); err != nil || n != 0 {
		t.Fatalf("clock now: %d events (%v), want none", n, err)
	}
	w.db.Now = func() time.Time { return now.Add(90 * time.Minute) }
	if n, err := w.db.ClockEvents(ctx); err != nil || n != 1 {
		t.Fatalf("clock +90m: %d events (%v), want 1", n, err)
	}
	w.db.Now = func() time.Time { return now.Add(3 * time.Hour) }
	if n, err := w.db.ClockEvents(ctx); err != nil || n != 1 {
		t.Fatalf("clock +3h: %d events (%v), want 1", n, err)
	}
	if _, err := w.client.DeleteRules(ctx, []json.Number{json.Number(later)}); err != nil {
		t.Fatal(err)
	}
	w.sync(SyncOptions{Full: true}, "comingsoon")
	want = append(want, "rule.started "+later, "rule.ended "+later, "rule.deleted "+later)
	if got := w.events(); !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
}

func createRule(t *testing.T, w *world, name string, start, end time.Time) string {
	return createRuleStatus(t, w, name, start, end, 1)
}

func createRuleStatus(t *testing.T, w *world, name string, start, end time.Time, status int) string {
	t.Helper()
	r := shop.NewRule{Name: name, Status: status, StartDate: start.Format(time.RFC3339), ApplyTo: "all"}
	if !end.IsZero() {
		r.EndDate = end.Format(time.RFC3339)
	}
	res, err := w.client.CreateRule(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return string(res.Rule.ID)
}

// --since replays what the mirror can tell happened since then.
func TestStartWatchingSinceReplays(t *testing.T) {
	w := newWorld(t, 10)
	w.sync(SyncOptions{}, "bis", "comingsoon")
	since := time.Now().Add(-time.Second)
	if err := sandbox.AddSubmissions(w.store, 2, time.Now()); err != nil {
		t.Fatal(err)
	}
	ids := w.newestSubmissionIDs(2)
	w.sendRestock(ids[0])
	rule := createRule(t, w, "soon", time.Now().Add(time.Hour), time.Time{})
	w.sync(SyncOptions{}, "bis", "comingsoon")
	ctx := context.Background()
	n, err := w.db.StartWatching(ctx, "bis", since)
	if err != nil || n != 3 {
		t.Fatalf("replayed %d (%v), want 3", n, err)
	}
	if n, err := w.db.StartWatching(ctx, "comingsoon", since); err != nil || n != 1 {
		t.Fatalf("replayed %d rules (%v), want 1", n, err)
	}
	want := []string{"submission.created " + fmt.Sprint(ids[1]), "submission.created " + fmt.Sprint(ids[0]),
		"submission.sent " + fmt.Sprint(ids[0]), "rule.created " + rule}
	if got := w.events(); !slices.Equal(got, want) {
		t.Fatalf("replay %v, want %v", got, want)
	}
	// Watching again changes nothing.
	if n, err := w.db.StartWatching(ctx, "bis", since); err != nil || n != 0 {
		t.Fatalf("a second start replayed %d (%v)", n, err)
	}
	if un, err := w.db.Unwatched(ctx, []string{"bis", "comingsoon", "preorder"}); err != nil || !slices.Equal(un, []string{"preorder"}) {
		t.Fatalf("unwatched %v (%v)", un, err)
	}
}

// --since is "at or after": a rule starting at the very instant --since
// names has started since then (the demo's rule 8 starts on 1 November,
// 00:00 UTC, and was created before).
func TestStartWatchingSinceIsAtOrAfter(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	w := newWorldAt(t, 0, func() time.Time { return now })
	w.sync(SyncOptions{}, "comingsoon")
	ctx := context.Background()
	if _, err := w.db.StartWatching(ctx, "comingsoon", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.db.ClockEvents(ctx); err != nil {
		t.Fatal(err)
	}
	if got := w.events(); !slices.Contains(got, "rule.started 8") {
		t.Fatalf("events since rule 8 started: %v, want rule.started 8 among them", got)
	}
}

func TestOffersChange(t *testing.T) {
	w := watchWorld(t, 5, "preorder")
	if err := w.store.Update(func(st *sandbox.State) error {
		st.Offers[0].Name += " (edited)"
		st.Offers[0].UpdatedAt = time.Now().UTC()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	w.sync(SyncOptions{}, "preorder")
	got := w.events()
	if len(got) != 1 || !strings.HasPrefix(got[0], "offer.changed ") {
		t.Fatalf("after an offer's edit: %v", got)
	}
}

// An alert fires when a count reaches it, not again while it stays, and
// again once it fell below and rose.
func TestAlertCrossings(t *testing.T) {
	w := watchWorld(t, 0, "bis")
	ctx := context.Background()
	alert := Alert{Name: "pending>=3", Min: 3}
	evaluate := func(want int) {
		t.Helper()
		w.sync(SyncOptions{Full: true}, "bis")
		if n, err := w.db.Alerts(ctx, []Alert{alert}); err != nil || n != want {
			t.Fatalf("%d alerts (%v), want %d", n, err, want)
		}
	}
	variant := addForVariant(t, w, 2)
	evaluate(0) // baseline
	addFor(t, w, variant, 1)
	evaluate(1) // 3: crossed
	addFor(t, w, variant, 1)
	evaluate(0) // 4: still above
	w.sendRestock(w.newestSubmissionIDs(2)...)
	evaluate(0) // 2: below, re-armed
	addFor(t, w, variant, 1)
	evaluate(1) // 3 again
	all, _ := w.db.Events(ctx, EventFilter{})
	evs := slices.DeleteFunc(all, func(e Event) bool { return e.Type != DemandThreshold })
	if len(evs) != 2 || evs[0].ID == evs[1].ID {
		t.Fatalf("alert events %+v", evs)
	}
	if !strings.Contains(string(evs[0].Data), `"alert":"pending>=3"`) {
		t.Errorf("data not written as plain JSON: %s", evs[0].Data)
	}
	var data map[string]any
	dec := json.NewDecoder(strings.NewReader(string(evs[1].Data)))
	dec.UseNumber()
	if err := dec.Decode(&data); err != nil || data["pending"] != json.Number("3") || data["by"] != "variant" ||
		fmt.Sprint(data["variant_id"]) != fmt.Sprint(variant.VariantID) || data["alert"] != "pending>=3" {
		t.Fatalf("data %s", evs[1].Data)
	}
}

// addForVariant registers n submissions for one variant, which it returns.
func addForVariant(t *testing.T, w *world, n int) sandbox.Submission {
	t.Helper()
	if err := sandbox.AddSubmissions(w.store, 1, time.Now()); err != nil {
		t.Fatal(err)
	}
	var sub sandbox.Submission
	_ = w.store.View(func(st *sandbox.State) error { sub = st.Submissions[len(st.Submissions)-1]; return nil })
	addFor(t, w, sub, n-1)
	return sub
}

// addFor registers n more submissions like like.
func addFor(t *testing.T, w *world, like sandbox.Submission, n int) {
	t.Helper()
	err := w.store.Update(func(st *sandbox.State) error {
		for range n {
			s := like
			s.ID = st.NextSubmissionID
			st.NextSubmissionID++
			s.CustomerEmail = fmt.Sprintf("%d.%s", s.ID, like.CustomerEmail)
			s.CreatedAt, s.UpdatedAt, s.Status = time.Now().UTC(), time.Now().UTC(), 0
			st.Submissions = append(st.Submissions, s)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestOutboxDelivery(t *testing.T) {
	w := watchWorld(t, 5, "bis")
	if err := sandbox.AddSubmissions(w.store, 2, time.Now()); err != nil {
		t.Fatal(err)
	}
	w.sync(SyncOptions{}, "bis")
	ctx := context.Background()
	first, err := w.db.NextEvent(ctx)
	if err != nil || first == nil || first.State != EventPending {
		t.Fatalf("next %+v (%v)", first, err)
	}
	retry := time.Now().Add(time.Minute).UTC().Truncate(time.Microsecond)
	if err := w.db.EventFailed(ctx, first.Seq, retry, "HTTP 500"); err != nil {
		t.Fatal(err)
	}
	again, _ := w.db.NextEvent(ctx)
	if again.Seq != first.Seq || again.Attempts != 1 || !again.NextAttemptAt.Equal(retry) || again.LastError != "HTTP 500" || again.FirstFailedAt.IsZero() {
		t.Fatalf("after a failed attempt %+v", again)
	}
	if err := w.db.EventParked(ctx, first.Seq, "HTTP 500"); err != nil {
		t.Fatal(err)
	}
	second, _ := w.db.NextEvent(ctx)
	if second.Seq == first.Seq {
		t.Fatal("a parked event is still next")
	}
	if err := w.db.EventDelivered(ctx, second.Seq); err != nil {
		t.Fatal(err)
	}
	if next, _ := w.db.NextEvent(ctx); next != nil {
		t.Fatalf("next after all: %+v", next)
	}
	parked, _ := w.db.Events(ctx, EventFilter{State: EventParked})
	if len(parked) != 1 || parked[0].Attempts != 2 {
		t.Fatalf("parked %+v", parked)
	}
	if missing, err := w.db.ResendEvents(ctx, []string{first.ID, "evt_nope"}); err != nil || !slices.Equal(missing, []string{"evt_nope"}) {
		t.Fatalf("resend with an unknown id: %v (%v)", missing, err)
	}
	if n, err := w.db.ResendParked(ctx); err != nil || n != 1 {
		t.Fatalf("resend parked: %d (%v)", n, err)
	}
	back, _ := w.db.NextEvent(ctx)
	if back.Seq != first.Seq || back.Attempts != 0 || back.LastError != "" {
		t.Fatalf("resent %+v", back)
	}
	if pending, parked, err := w.db.OutboxCounts(ctx); err != nil || pending != 1 || parked != 0 {
		t.Fatalf("counts %d %d (%v)", pending, parked, err)
	}
	if err := w.db.PruneEvents(ctx, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got := w.events(); len(got) != 1 {
		t.Fatalf("after pruning the delivered: %v", got)
	}
}

// Outbox opens a mirror a watch holds, to resend.
func TestOutboxModeBesideAWriter(t *testing.T) {
	w := watchWorld(t, 5, "bis")
	ctx := context.Background()
	other, err := Open(ctx, w.path, w.options(Outbox, "https://sandbox.test"))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if n, err := other.ResendParked(ctx); err != nil || n != 0 {
		t.Fatalf("%d (%v)", n, err)
	}
	if _, err := Open(ctx, w.path, w.options(Outbox, "https://other.test")); err == nil {
		t.Fatal("a mirror of another store was opened")
	}
	if _, err := Open(ctx, w.path+".none", Options{Mode: Outbox}); w.pg == nil && err == nil {
		t.Fatal("a missing mirror was opened (or created)")
	}
}
