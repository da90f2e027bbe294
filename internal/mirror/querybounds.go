package mirror

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/storectl/storectl/internal/exitcode"
)

// mirror query's bounds: what one query may take of the machine, on
// SQLite and on PostgreSQL alike, so that a mistyped query (a value of a
// gigabyte, a recursive CTE that never ends, a join of everything with
// everything) stops with a message instead of taking the machine's memory
// or running for ever.
const (
	// QueryValueLimit is the longest value (text or blob) a query may
	// make: SQLite's length limit on the query's connection refuses a
	// longer one before making it.
	QueryValueLimit = 16 << 20
	// QueryRowLimit is the most a row of the result may hold, as JSON.
	QueryRowLimit = 64 << 20
	// queryColumnLimit is the most columns a result may have (SQLite's
	// own default is 2,000): with the value limit, it bounds what SQLite
	// makes of a row before storectl reads it.
	queryColumnLimit = 256
	// DefaultQueryTimeLimit is how long a query may work by default.
	DefaultQueryTimeLimit = time.Minute
)

// QueryLimitError is a query stopped at one of its bounds.
type QueryLimitError struct {
	// What says which bound it met: "a value would be longer than 16 MiB,
	// the most a query may make".
	What string
	// Time is set when the bound was the time limit.
	Time bool
}

func (e *QueryLimitError) Error() string {
	return "mirror query stopped: " + e.What + " (nothing was changed)"
}

func valueLimitError() error {
	return &QueryLimitError{What: fmt.Sprintf("a value would be longer than %s, the most a query may make", mib(QueryValueLimit))}
}

func rowLimitError() error {
	return &QueryLimitError{What: fmt.Sprintf("a row holds more than %s, the most a query may return", mib(QueryRowLimit))}
}

// ExitCode: the query is the user's to change.
func (e *QueryLimitError) ExitCode() int { return exitcode.Usage }

// mib says a byte count in MiB.
func mib(n int) string { return fmt.Sprintf("%d MiB", n>>20) }

// limitConn sets the value and column limits on the query's connection
// and returns what puts SQLite's own back, for the mirror's queries.
func limitConn(conn *sql.Conn) (restore func(), err error) {
	length, err := sqlite.Limit(conn, sqlite3.SQLITE_LIMIT_LENGTH, QueryValueLimit)
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
		return &QueryLimitError{What: fmt.Sprintf("it worked %s, its time limit", c.limit), Time: true}
	}
	return err
}
