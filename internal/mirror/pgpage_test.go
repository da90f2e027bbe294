package mirror

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/mirror/backend"
	"github.com/storectl/storectl/internal/mirror/postgres"
	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
)

// A page of a sync reaches PostgreSQL in two round trips (pgpage.go): the
// lookup of its ids with the list's watch count, then its statements
// between BEGIN and COMMIT. Counted on the wire: the messages that end a
// round trip (Sync, Query) the mirror's connections send while twenty
// pages in the middle of a first sync are fetched and stored.
func TestPostgresPageInTwoRoundTrips(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only")
	}
	w := newWorld(t, 15*40)
	var trips roundTrips
	w.pg.Config.DialFunc = trips.dial
	w.reopen()
	var at [2]int64
	w.before = func(n int, r *http.Request) {
		switch n {
		case 11:
			at[0] = trips.n.Load()
		case 31:
			at[1] = trips.n.Load()
		}
	}
	w.sync(SyncOptions{}, "bis")
	if at[1] == 0 {
		t.Fatal("the sync did not reach its 31st request")
	}
	// Pages are fetched four ahead (shop's aheadPages), so the 20 requests
	// of the window may see 16 to 24 pages stored; the lease's heartbeat
	// may add a round trip. A page whose lookup came with the page before
	// the last (lookahead.go) takes one.
	if got, most := at[1]-at[0], int64(2*24+1); got > most {
		t.Errorf("20 pages took %d round trips, want at most %d (two a page)", got, most)
	}
}

// A page's statements use the plans PostgreSQL keeps (pageSettings),
// though the writer's connection plans its lookups anew: the INSERT of a
// first sync's pages ran on a generic plan once it had run five times.
func TestPostgresPageKeepsItsPlans(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only")
	}
	w := newWorld(t, 15*10)
	w.sync(SyncOptions{}, "bis")
	// Plans are kept per connection, and the pages' connection is one of
	// the pool's, not necessarily the one it hands out next: every open
	// connection is held at once and asked.
	ctx := context.Background()
	stats := w.db.sql().Stats()
	var generic, custom int64
	for range stats.OpenConnections {
		conn, err := w.db.sql().Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		var g, c int64
		err = conn.QueryRowContext(ctx, `SELECT coalesce(sum(generic_plans), 0), coalesce(sum(custom_plans), 0)
			FROM pg_prepared_statements WHERE statement LIKE 'INSERT INTO submissions %'`).Scan(&g, &c)
		if err != nil {
			t.Fatal(err)
		}
		generic, custom = generic+g, custom+c
	}
	if generic == 0 || custom > 5 {
		t.Errorf("a first sync's INSERT ran %d times on a generic plan and %d on a custom one, over %d connections (%d closed since they were idle)",
			generic, custom, stats.OpenConnections, stats.MaxIdleClosed)
	}
}

// A page's lookup, planned for any ids while a first pass fills an empty
// table whose key is its only index (its first pass deferred the others), finds each id through
// the key, store and id, rather than reading every row of the store with
// the ids as a filter.
func TestPostgresLookupPlanSeeksEachID(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only")
	}
	w := newWorld(t, 15)
	ctx := context.Background()
	conn, err := w.db.sql().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{"SELECT storectl.defer_indexes('submissions')", "SET plan_cache_mode = force_generic_plan"} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	sub := resourcesOf("bis")[0]
	for i, q := range []string{w.db.rows(sub).SeenSync, w.db.rows(sub).SeenExport} {
		name := fmt.Sprintf("look%d", i)
		if _, err := conn.ExecContext(ctx, "PREPARE "+name+" AS "+q); err != nil {
			t.Fatal(err)
		}
		var plan strings.Builder
		args := []string{"'[1, 2, 3]'", "1"} // the ids, then the pass
		rows, err := conn.QueryContext(ctx, "EXPLAIN EXECUTE "+name+"("+strings.Join(args, ", ")+")")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			plan.WriteString(line + "\n")
		}
		rows.Close()
		if !strings.Contains(plan.String(), "Index Cond: ((store = current_setting('storectl.store'::text, true)) AND (id = ") {
			t.Errorf("%s\nplan:\n%s", q, plan.String())
		}
	}
}

// A page whose statement fails mid-pipeline leaves nothing of it: the
// server skips the rest of the page, COMMIT too, and the transaction is
// rolled back, so the journal stays at the page before; the connection
// goes on serving the next sync, which continues and keeps every row once.
func TestPostgresPageFailingMidwayKeepsNothingOfIt(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only")
	}
	w := newWorld(t, 15*6)
	pgExec(t, w.pg, `CREATE FUNCTION public.third_page() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF (SELECT count(*) FROM storectl.submissions) >= 30 THEN RAISE EXCEPTION 'no third page'; END IF;
	RETURN NULL;
END $$`)
	pgExec(t, w.pg, `CREATE TRIGGER third_page BEFORE INSERT ON storectl.submissions
		FOR EACH STATEMENT EXECUTE FUNCTION public.third_page()`)
	res, err := w.db.Sync(context.Background(), w.client, []string{"bis"}, SyncOptions{})
	if err == nil || !strings.Contains(err.Error(), "no third page") || !strings.Contains(err.Error(), "INSERT INTO submissions") {
		t.Fatalf("the third page's failure: %v", err)
	}
	// The page fails once sent, while the next is readied (SendPage): the
	// pass's counters must not keep it.
	if len(res) != 1 || res[0].New != 30 {
		t.Errorf("the pass says it kept %+v, want the first two pages' 30 new rows", res)
	}
	if n := w.count("SELECT count(*) FROM submissions"); n != 30 {
		t.Errorf("%d rows kept, want the first two pages' 30", n)
	}
	if n := w.count("SELECT rows_new FROM sync_journal ORDER BY id DESC LIMIT 1"); n != 30 {
		t.Errorf("the journal counts %d new rows, want 30: it must not move without its page", n)
	}
	pgExec(t, w.pg, "DROP TRIGGER third_page ON storectl.submissions")
	w.sync(SyncOptions{}, "bis")
	if n := w.count("SELECT count(DISTINCT id) FROM submissions WHERE gone_at IS NULL"); n != 90 {
		t.Errorf("%d distinct rows after the sync went on, want 90", n)
	}
	if n := w.count("SELECT count(*) FROM submissions"); n != 90 {
		t.Errorf("%d rows after the sync went on, want 90", n)
	}
}

// A sync's page commits while the walk looks up the next one's ids: the
// server stores one page while storectl readies the next. The engine's
// calls to its backend, in order: each page's lookup comes after the page
// before was sent and before that page is settled, and every page sent is
// settled before the pass ends. On PostgreSQL a page's lookup may have
// come with the page before the last (lookahead.go), when the walk had
// that page in hand then: it has no lookup of its own. The pass is a full
// pass over the rows a first sync stored: a first sync's pages, below
// every row in the table, need no lookup (floor.go).
func TestPageCommitsWhileTheNextIsLookedUp(t *testing.T) {
	w := newWorld(t, 15*6)
	w.sync(SyncOptions{}, "bis")
	calls := &callOrder{Conn: w.db.conn}
	w.db.conn = calls
	res := w.sync(SyncOptions{Full: true}, "bis")
	if res[0].New != 0 || res[0].Changed != 0 || res[0].Walk.Given != 90 {
		t.Errorf("the full pass: %+v, want the 90 rows met, none new or changed", res[0])
	}
	order := regexp.MustCompile(`^lookup send lookup settle send( (lookup )?settle send){4} settle`)
	got := strings.Join(calls.log, " ")
	if !order.MatchString(got) {
		t.Errorf("the engine's calls:\n%s\nwant them to match\n%s", got, order)
	}
	if n := lookupsIn(calls.log); !onPostgres && n != 6 {
		t.Errorf("%d lookups on SQLite, want one a page (6)", n)
	}
	if n := w.count("SELECT count(*) FROM submissions"); n != 90 {
		t.Errorf("%d rows stored, want 90", n)
	}
}

// On PostgreSQL SendPage returns once the page is sent, before it
// commits: here its statement waits for a lock the test holds, and
// SendPage must return all the same. SettlePage then waits for the commit;
// a page that fails once sent is named by SettlePage, and the connection
// serves the next page.
func TestPostgresSendPageReturnsBeforeItCommits(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only")
	}
	w := newWorld(t, 15)
	w.sync(SyncOptions{}, "bis")
	ctx := context.Background()
	holder, err := pgtest.SQL(t, w.pg.Config).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if _, err := holder.ExecContext(ctx, "SELECT pg_advisory_lock(4242)"); err != nil {
		t.Fatal(err)
	}
	sent := make(chan error, 1)
	go func() {
		sent <- w.db.conn.SendPage(ctx, func(tx backend.Tx) error {
			_, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(4242)")
			return err
		})
	}()
	select {
	case err := <-sent:
		if err != nil {
			t.Fatalf("SendPage: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("SendPage waited for its page to commit")
	}
	if _, err := holder.ExecContext(ctx, "SELECT pg_advisory_unlock(4242)"); err != nil {
		t.Fatal(err)
	}
	if err := w.db.conn.SettlePage(ctx); err != nil {
		t.Fatalf("SettlePage of a page that committed: %v", err)
	}

	err = w.db.conn.SendPage(ctx, func(tx backend.Tx) error {
		_, err := tx.ExecContext(ctx, "SELECT 1 / (SELECT count(*) - count(*) FROM submissions)")
		return err
	})
	if err != nil {
		t.Fatalf("SendPage of a page that fails once sent: %v", err)
	}
	if err := w.db.conn.SettlePage(ctx); err == nil || !strings.Contains(err.Error(), "division by zero") {
		t.Fatalf("SettlePage of a page that failed: %v", err)
	}
	if err := w.db.conn.SettlePage(ctx); err != nil {
		t.Fatalf("a second SettlePage: %v, want nil (nothing in flight)", err)
	}
	w.sync(SyncOptions{}, "bis")
}

// callOrder logs the page calls the engine makes of its backend, and
// counts the lookups pages carry (backend.LookAhead).
type callOrder struct {
	backend.Conn
	log     []string
	carried int
}

func (c *callOrder) Lookup(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	c.log = append(c.log, "lookup")
	return c.Conn.Lookup(ctx, q, args...)
}

func (c *callOrder) SendPage(ctx context.Context, fn func(backend.Tx) error) error {
	err := c.Conn.SendPage(ctx, c.counted(fn))
	c.log = append(c.log, "send")
	return err
}

func (c *callOrder) WritePage(ctx context.Context, fn func(backend.Tx) error) error {
	return c.Conn.WritePage(ctx, c.counted(fn))
}

func (c *callOrder) counted(fn func(backend.Tx) error) func(backend.Tx) error {
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

func (c *callOrder) SettlePage(ctx context.Context) error {
	c.log = append(c.log, "settle")
	return c.Conn.SettlePage(ctx)
}

// roundTrips counts the round trips of the connections it dials.
type roundTrips struct{ n atomic.Int64 }

func (r *roundTrips) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &tripConn{Conn: c, trips: &r.n}, nil
}

// tripConn reads the client's side of PostgreSQL's protocol as it is
// written, counting the messages after which the client waits for the
// server: Sync (extended protocol) and Query (simple protocol).
type tripConn struct {
	net.Conn
	trips   *atomic.Int64
	pending []byte
	started bool // past the startup message, which has no type byte
}

func (c *tripConn) Write(p []byte) (int, error) {
	c.pending = append(c.pending, p...)
	for c.next() {
	}
	return c.Conn.Write(p)
}

// next consumes one whole message of pending, if there is one.
func (c *tripConn) next() bool {
	if !c.started {
		if len(c.pending) < 8 {
			return false
		}
		n := int(binary.BigEndian.Uint32(c.pending))
		if len(c.pending) < n {
			return false
		}
		code := binary.BigEndian.Uint32(c.pending[4:])
		c.started = code != 80877103 && code != 80877104 // not an SSL or GSS request
		c.pending = c.pending[n:]
		return true
	}
	if len(c.pending) < 5 {
		return false
	}
	n := 1 + int(binary.BigEndian.Uint32(c.pending[1:]))
	if len(c.pending) < n {
		return false
	}
	if c.pending[0] == 'S' || c.pending[0] == 'Q' {
		c.trips.Add(1)
	}
	c.pending = c.pending[n:]
	return true
}

// A reader refuses a connection whose views show another store than its
// profile's, as a connection pooler's entry set for another store would
// (docs/team-mirror.md): its answers would be that store's rows. The
// dialer here stands for the pooler, rewriting the store storectl sends.
func TestPostgresReaderRefusesAConnectionScopedToAnotherStore(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only")
	}
	w := newWorld(t, 15)
	w.sync(SyncOptions{}, "bis")
	tg := *w.pg
	tg.Config = w.pg.Config.Copy()
	elsewhere := "https://elsewhere.test"
	tg.Config.DialFunc = startupDial(map[string]*string{"storectl.store": &elsewhere})
	db, err := Open(context.Background(), postgres.At(&tg), Options{Mode: ReadOnly, Store: "https://sandbox.test"})
	if err == nil {
		db.Close()
	}
	var se *StoreScopeError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "elsewhere.test") {
		t.Fatalf("a reader scoped to another store: %v", err)
	}
}

// startupConn sends the startup message with its parameters edited: each
// of set's keys given its value, or dropped when it is nil.
type startupConn struct {
	net.Conn
	set     map[string]*string
	started bool
}

func (c *startupConn) Write(p []byte) (int, error) {
	if c.started || len(p) < 8 {
		return c.Conn.Write(p)
	}
	c.started = true
	fields := strings.Split(string(p[8:]), "\x00")
	body := append([]byte{}, p[4:8]...)
	add := func(k, v string) { body = append(append(append(append(body, k...), 0), v...), 0) }
	for i := 0; i+1 < len(fields) && fields[i] != ""; i += 2 {
		if v, ok := c.set[fields[i]]; !ok {
			add(fields[i], fields[i+1])
		} else if v != nil {
			add(fields[i], *v)
		}
	}
	for k, v := range c.set {
		if v != nil && !slices.Contains(fields, k) {
			add(k, *v)
		}
	}
	body = append(body, 0)
	msg := binary.BigEndian.AppendUint32(nil, uint32(4+len(body)))
	if _, err := c.Conn.Write(append(msg, body...)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// startupDial dials with the startup message edited (startupConn).
func startupDial(set map[string]*string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		return &startupConn{Conn: c, set: set}, err
	}
}
