package mirror

import (
	"testing"
	"time"

	"github.com/storectl/storectl/internal/sandbox"
)

// A first sync reads the list newest first, each page's ids below the
// rows already in the table: it asks the mirror nothing about them, on
// its own or carried by a page, and stores every row once. A later pass
// whose rows lie above the table's least id asks as before.
func TestFirstSyncLooksUpNoPageBelowItsRows(t *testing.T) {
	w := newWorld(t, 15*8)
	asks := &callOrder{Conn: w.db.conn}
	w.db.conn = asks
	w.sync(SyncOptions{Full: true}, "bis")
	if lookups := lookupsIn(asks.log); lookups != 0 || asks.carried != 0 {
		t.Errorf("a first sync of 8 pages made %d lookups and carried %d, want none", lookups, asks.carried)
	}
	if n := w.count("SELECT count(*) FROM submissions"); n != 120 {
		t.Errorf("%d rows stored, want 120", n)
	}
	if err := sandbox.AddSubmissions(w.store, 3, time.Now()); err != nil {
		t.Fatal(err)
	}
	w.sync(SyncOptions{}, "bis")
	if lookupsIn(asks.log)+asks.carried == 0 {
		t.Error("an incremental sync of new rows, above the table's least id, asked the mirror nothing")
	}
	if n := w.count("SELECT count(*) FROM submissions"); n != 123 {
		t.Errorf("%d rows stored, want 123", n)
	}
}
