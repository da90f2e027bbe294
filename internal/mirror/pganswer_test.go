package mirror

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/mirror/postgres"
)

// An offline answer from a PostgreSQL mirror costs two round trips after
// the connection's start: the open's check with the store's freshness
// (checkPG), then the answer's statement, sent unnamed with its parameters
// rather than prepared first. Counted on the wire as
// TestPostgresPageInTwoRoundTrips counts a page's; the answers are the
// writer's.
func TestPostgresOfflineAnswerInTwoRoundTrips(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only")
	}
	ctx := context.Background()
	w := newWorld(t, 30)
	w.sync(SyncOptions{}, "bis")
	var email string
	if err := w.db.sql().QueryRow("SELECT customer_email FROM submissions ORDER BY id LIMIT 1").Scan(&email); err != nil {
		t.Fatal(err)
	}
	wantFound, err := w.db.Find(ctx, FindFilter{Email: email})
	if err != nil || len(wantFound) == 0 {
		t.Fatalf("the writer finds %d rows of %s: %v", len(wantFound), email, err)
	}
	wantDemand, err := w.db.Demand(ctx, DemandFilter{ByVariant: true})
	if err != nil {
		t.Fatal(err)
	}

	tg := *w.pg
	tg.Config = w.pg.Config.Copy()
	var trips roundTrips
	tg.Config.DialFunc = trips.dial
	db, err := Open(ctx, postgres.At(&tg), Options{Mode: ReadOnly, Store: "https://sandbox.test"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	step := func(what string, want int64) {
		t.Helper()
		if n := trips.n.Load(); n != want {
			t.Errorf("after %s: %d round trips, want %d", what, n, want)
		}
	}
	missing, age, err := db.Freshness(ctx, []string{"bis"})
	if err != nil || len(missing) > 0 || age.IsZero() {
		t.Fatalf("the reader's freshness: %v, %v, %v", missing, age, err)
	}
	step("the open and the freshness", 1)
	found, err := db.Find(ctx, FindFilter{Email: strings.ToUpper(email)})
	if err != nil || !slices.EqualFunc(found, wantFound, jsonEqual) {
		t.Errorf("the reader finds %d rows (%v), want the writer's %d", len(found), err, len(wantFound))
	}
	step("bis find", 2)
	demand, err := db.Demand(ctx, DemandFilter{ByVariant: true})
	if err != nil || !slices.EqualFunc(demand, wantDemand, jsonEqual) {
		t.Errorf("the reader's demand: %d rows (%v), want the writer's %d", len(demand), err, len(wantDemand))
	}
	step("bis demand", 3)
}

func jsonEqual(a, b json.RawMessage) bool { return string(a) == string(b) }

// A reader names its store in each statement's transaction (readerQuery),
// so a connection whose session names none, and reads every store's
// tables under their plain names, still answers with its store's rows
// only, as through one pgbouncer entry for every store with transaction
// pooling: the dialer here stands for that pooler, dropping the startup
// parameters it does not pass on. And what it runs cannot write.
func TestPostgresReaderNamesItsStoreInEachTransaction(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only")
	}
	ctx := context.Background()
	w := newWorld(t, 30)
	w.sync(SyncOptions{}, "bis")
	other, err := Open(ctx, postgres.At(w.pg), Options{Mode: Write, Store: "https://other.test"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := other.sql().ExecContext(ctx, `INSERT INTO submissions (id, product_id, variant_id, status, created_at, customer_email,
			list_json, list_fetched_at, first_seen_at, last_seen_at) VALUES ($1, 7, 70, 0, '2026-01-01T00:00:00Z', 'x@other.test', '{}', 'x', 'x', 'x')`, i+1); err != nil {
			t.Fatal(err)
		}
	}
	other.Close()
	wantFound, err := w.db.Find(ctx, FindFilter{})
	if err != nil {
		t.Fatal(err)
	}
	wantDemand, err := w.db.Demand(ctx, DemandFilter{})
	if err != nil {
		t.Fatal(err)
	}

	reader := pgReader(t, w.pg)
	tg := *reader
	tg.Config = reader.Config.Copy()
	everyStore := "storectl"
	tg.Config.DialFunc = startupDial(map[string]*string{"storectl.store": nil, "search_path": &everyStore})
	db, err := Open(ctx, postgres.At(&tg), Options{Mode: ReadOnly, Store: "https://sandbox.test"})
	if err != nil {
		t.Fatalf("a reader whose connection names no store: %v", err)
	}
	defer db.Close()
	if missing, _, err := db.Freshness(ctx, []string{"bis"}); err != nil || len(missing) > 0 {
		t.Fatalf("freshness: %v, %v", missing, err)
	}
	if found, err := db.Find(ctx, FindFilter{}); err != nil || !slices.EqualFunc(found, wantFound, jsonEqual) {
		t.Errorf("bis find: %d rows (%v), want its store's %d", len(found), err, len(wantFound))
	}
	if demand, err := db.Demand(ctx, DemandFilter{}); err != nil || !slices.EqualFunc(demand, wantDemand, jsonEqual) {
		t.Errorf("bis demand: %d rows (%v), want its store's %d", len(demand), err, len(wantDemand))
	}
	count := func(q Querier) (n int) {
		if err := q.QueryRowContext(ctx, "SELECT count(*) FROM submissions").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(db.sql()); n != 30 {
		t.Errorf("a statement counts %d rows, want its store's 30", n)
	}
	if err := db.Read(ctx, func(q Querier) error {
		if n := count(q); n != 30 {
			t.Errorf("a read transaction's statement counts %d rows, want its store's 30", n)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var queried []json.RawMessage
	if err := db.Query(ctx, "SELECT count(*) AS n FROM submissions", QueryRows{Columns: func([]string) error { return nil },
		Row: func(item json.RawMessage) error { queried = append(queried, item); return nil }}); err != nil ||
		len(queried) != 1 || string(queried[0]) != `{"n":30}` {
		t.Errorf("mirror query: %s (%v), want its store's 30", queried, err)
	}
	if _, err := db.sql().QueryContext(ctx, "DELETE FROM storectl.submissions RETURNING id"); err == nil || !strings.Contains(err.Error(), "read-only transaction") {
		t.Errorf("a reader's statement wrote: %v", err)
	}
}
