package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"time"

	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// mirror query's bounds on SQLite (backend.QueryValueLimit and the rest
// say why): SQLite's own limits on the query's connection, and a clock of
// the time SQLite works on it.

// queryColumnLimit is the most columns a result may have (SQLite's own
// default is 2,000): with the value limit, it bounds what SQLite makes of
// a row before storectl reads it.
const queryColumnLimit = 256

// limitConn sets the value and column limits on the query's connection
// and returns what puts SQLite's own back, for the mirror's queries.
func limitConn(conn *sql.Conn) (restore func(), err error) {
	length, err := sqlite.Limit(conn, sqlite3.SQLITE_LIMIT_LENGTH, backend.QueryValueLimit)
	if err != nil {
		return nil, err
	}
	columns, err := sqlite.Limit(conn, sqlite3.SQLITE_LIMIT_COLUMN, queryColumnLimit)
	if err != nil {
		return nil, err
	}
	return func() {
		_, _ = sqlite.Limit(conn, sqlite3.SQLITE_LIMIT_LENGTH, length)
		_, _ = sqlite.Limit(conn, sqlite3.SQLITE_LIMIT_COLUMN, columns)
	}, nil
}

// tooBig is SQLite's refusal of a value past the length limit.
func tooBig(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_TOOBIG
}

// queryClock stops a query once the database has worked limit on it,
// counting only the time storectl waits for it, not the time its rows
// take to be printed: a query that never ends stops, a big result read
// through a slow pipe does not. A zero limit never stops it.
type queryClock struct {
	limit   time.Duration
	cancel  context.CancelFunc
	mu      sync.Mutex
	left    time.Duration
	started time.Time
	timer   *time.Timer
	expired bool
}

// newQueryClock returns the query's context, which the clock cancels when
// the time is up.
func newQueryClock(ctx context.Context, limit time.Duration) (context.Context, *queryClock) {
	ctx, cancel := context.WithCancel(ctx)
	return ctx, &queryClock{limit: limit, left: limit, cancel: cancel}
}

// run starts counting: the database is working.
func (c *queryClock) run() {
	if c.limit <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.started = time.Now()
	c.timer = time.AfterFunc(c.left, func() {
		c.mu.Lock()
		c.expired = true
		c.mu.Unlock()
		c.cancel()
	})
}

// pause stops counting: storectl has what it waited for.
func (c *queryClock) pause() {
	if c.limit <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.timer.Stop()
	c.left -= time.Since(c.started)
}

// stop releases the clock's context.
func (c *queryClock) stop() { c.cancel() }

// explain turns the clock's cancellation into the bound it is.
func (c *queryClock) explain(err error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.expired {
		return backend.TimeLimitError(c.limit, "")
	}
	return err
}
