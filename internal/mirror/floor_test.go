package mirror

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/mirror/backend"
	"github.com/storectl/storectl/internal/sandbox"
)

// A first sync reads the list newest first, each page's ids below the
// rows already in the table: it asks the mirror nothing about them, on
// its own or carried by a page, and stores every row once. A later pass
// whose rows lie above the table's least id asks as before.
func TestFirstSyncLooksUpNoPageBelowItsRows(t *testing.T) {
	w := newWorld(t, 15*8)
	asks := &lookupCount{Conn: w.db.conn}
	w.db.conn = asks
	w.sync(SyncOptions{Full: true}, "bis")
	if asks.lookups != 0 || asks.carried != 0 {
		t.Errorf("a first sync of 8 pages made %d lookups and carried %d, want none", asks.lookups, asks.carried)
	}
	if n := w.count("SELECT count(*) FROM submissions"); n != 120 {
		t.Errorf("%d rows stored, want 120", n)
	}
	if err := sandbox.AddSubmissions(w.store, 3, time.Now()); err != nil {
		t.Fatal(err)
	}
	w.sync(SyncOptions{}, "bis")
	if asks.lookups+asks.carried == 0 {
		t.Error("an incremental sync of new rows, above the table's least id, asked the mirror nothing")
	}
	if n := w.count("SELECT count(*) FROM submissions"); n != 123 {
		t.Errorf("%d rows stored, want 123", n)
	}
}

// lookupCount counts a pass's lookups: on their own (Lookup) and carried
// by a page's transaction (backend.LookAhead).
type lookupCount struct {
	backend.Conn
	lookups, carried int
}

func (c *lookupCount) Lookup(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	c.lookups++
	return c.Conn.Lookup(ctx, q, args...)
}

func (c *lookupCount) SendPage(ctx context.Context, fn func(backend.Tx) error) error {
	return c.Conn.SendPage(ctx, c.counted(fn))
}

func (c *lookupCount) WritePage(ctx context.Context, fn func(backend.Tx) error) error {
	return c.Conn.WritePage(ctx, c.counted(fn))
}

func (c *lookupCount) counted(fn func(backend.Tx) error) func(backend.Tx) error {
	return func(tx backend.Tx) error {
		if la, ok := tx.(aheadTx); ok {
			return fn(countedAhead{aheadTx: la, n: &c.carried})
		}
		return fn(tx)
	}
}

type aheadTx interface {
	backend.Tx
	backend.LookAhead
}

type countedAhead struct {
	aheadTx
	n *int
}

func (t countedAhead) LookAhead(q string, args ...any) *backend.Ahead {
	*t.n++
	return t.aheadTx.LookAhead(q, args...)
}
