package postgres

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/storectl/storectl/internal/mirror/backend"
	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
	"github.com/storectl/storectl/internal/mirror/postgres/pgurl"
)

// TestMain stops the throwaway PostgreSQL server the tests may start.
func TestMain(m *testing.M) { pgtest.Main(m) }

// pgTarget is a fresh database on the test server.
func pgTarget(t testing.TB) *pgurl.Target {
	t.Helper()
	tg, err := pgurl.Parse(pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// One writer per store: a second writable open reports the holder (or with
// Write mode waits); a holder whose session ended is taken over only once
// its heartbeat expired; a silent holder whose session lingers is ended
// and taken over; a reader is never kept out.
func TestPostgresLease(t *testing.T) {
	// Long enough that a loaded machine's next Open still finds the dead
	// holder's heartbeat fresh (it expires 2/3 to 3/3 of this after the death).
	const ttl = 3 * time.Second
	ctx := context.Background()
	tg := pgTarget(t)
	const store = "https://a.example"
	first, err := At(tg).Open(ctx, backend.OpenOptions{Mode: backend.WriteIfFree, Store: store, LeaseTTL: ttl, Purpose: "sync"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = At(tg).Open(ctx, backend.OpenOptions{Mode: backend.WriteIfFree, Store: store, LeaseTTL: ttl})
	var held *backend.LeaseHeldError
	if !errors.As(err, &held) || !errors.Is(err, backend.ErrBusy) || !strings.Contains(err.Error(), "sync on ") {
		t.Fatalf("second writer: %v", err)
	}
	reader, err := At(tg).Open(ctx, backend.OpenOptions{Mode: backend.ReadOnly, Store: store, LeaseTTL: ttl})
	if err != nil {
		t.Fatalf("a reader is kept out: %v", err)
	}
	reader.Close()
	// Another store is not busy.
	other, err := At(tg).Open(ctx, backend.OpenOptions{Mode: backend.WriteIfFree, Store: "https://b.example"})
	if err != nil {
		t.Fatalf("another store: %v", err)
	}
	other.Close()

	// The holder dies (kill -9: its session ends, its row stays).
	close(first.(*conn).lease.stop)
	<-first.(*conn).lease.done
	first.(*conn).lease.conn.PgConn().Conn().Close()
	died := time.Now()
	if _, err := At(tg).Open(ctx, backend.OpenOptions{Mode: backend.WriteIfFree, Store: store, LeaseTTL: ttl}); !errors.Is(err, backend.ErrBusy) {
		t.Fatalf("taken over before the heartbeat expired: %v", err)
	}
	fresh := leaseLeft(t, tg, store)
	var waited []string
	second, err := At(tg).Open(ctx, backend.OpenOptions{Mode: backend.Write, Store: store, LeaseTTL: ttl, Waiting: func(m string) { waited = append(waited, m) }})
	if err != nil {
		t.Fatal(err)
	}
	if since := time.Since(died); since < ttl*2/3 {
		t.Errorf("taken over %s after the holder died, before its heartbeat expired", since)
	}
	// Told once that it waits, unless the heartbeat was about to expire
	// when it asked (a loaded machine: the Open before took that long).
	if len(waited) > 1 || len(waited) == 0 && fresh > ttl/3 {
		t.Errorf("waiting told %d times (the heartbeat had %s left): %q", len(waited), fresh, waited)
	}

	// Now the holder goes silent but its session lingers (its machine
	// vanished): once expired, the next writer ends that session.
	close(second.(*conn).lease.stop)
	<-second.(*conn).lease.done
	third, err := At(tg).Open(ctx, backend.OpenOptions{Mode: backend.Write, Store: store, LeaseTTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	if err := second.(*conn).lease.beat(); !errors.Is(err, backend.ErrLeaseLost) {
		t.Errorf("the silent holder still beats: %v", err)
	}
	third.Close()
	if third, err = At(tg).Open(ctx, backend.OpenOptions{Mode: backend.WriteIfFree, Store: store, LeaseTTL: ttl}); err != nil {
		t.Fatalf("after a release the lease is free at once: %v", err)
	}
	third.Close()
}

// leaseLeft is how long the store's lease row has before its heartbeat
// expires, by the server's clock.
func leaseLeft(t *testing.T, tg *pgurl.Target, store string) time.Duration {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.ConnectConfig(ctx, tg.Config)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var ms float64
	if err := conn.QueryRow(ctx, `SELECT extract(epoch FROM expires_at - now()) * 1000 FROM storectl.leases WHERE store = $1`, store).Scan(&ms); err != nil {
		t.Fatalf("the lease row of %s: %v", store, err)
	}
	return time.Duration(ms * float64(time.Millisecond))
}
