package mirror

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// One writer per store, on any machine: a writable open of a PostgreSQL
// mirror takes the store's lease, which is two things held together:
//
//   - a session advisory lock, on a connection of its own: PostgreSQL
//     frees it the moment that connection ends (the process exited or was
//     killed), so two live writers never both hold it;
//   - a row in storectl.leases naming the holder (host, pid, start time, its
//     server process) with a heartbeat the holder renews every TTL/3.
//
// A writer finding the lock free but the row's heartbeat fresh waits for it
// to expire: the holder may be alive on a machine whose connection broke.
// A writer finding the lock held and the heartbeat expired ends the
// silent holder's server process (its machine is gone, and its session
// would hold the lock until TCP noticed) and takes over. A holder whose
// row another took over loses the lease: its context ends, so it stops
// writing at once.

// DefaultLeaseTTL is how long a lease outlives its last heartbeat when
// the opener says nothing (Options.LeaseTTL: the mirror_lease_ttl
// setting, which operators lower for a faster takeover).
const DefaultLeaseTTL = 60 * time.Second

// LeaseHolder is who holds a store's lease.
type LeaseHolder struct {
	Host      string
	PID       int
	Purpose   string
	Started   time.Time
	Heartbeat time.Time
	Expires   time.Time
}

// LeaseHeldError is a store another storectl is writing (a sync, a detail
// refresh, a watch), on this machine or another. It is ErrBusy: callers
// that answer from the mirror as it is do so.
type LeaseHeldError struct {
	Store  string
	Holder LeaseHolder
	Now    time.Time // the server's clock when the lease was read
}

func (e *LeaseHeldError) Error() string {
	h := e.Holder
	what := ""
	if h.Purpose != "" {
		what = h.Purpose + " "
	}
	return fmt.Sprintf("another storectl is writing the mirror of %s: %son %s (pid %d), since %s, last heartbeat %s ago",
		e.Store, what, h.Host, h.PID, h.Started.Local().Format(time.DateTime), e.Now.Sub(h.Heartbeat).Round(time.Second))
}

// Is makes a held lease ErrBusy.
func (e *LeaseHeldError) Is(target error) bool { return target == ErrBusy }

// ErrLeaseLost ends the work of a writer whose lease another took over.
var ErrLeaseLost = errors.New("the mirror's lease was taken over by another storectl (this one's heartbeat had expired)")

type leaseOptions struct {
	ttl     time.Duration
	purpose string
	wait    bool
	waiting func(string)
}

// Lease is a held store lease.
type Lease struct {
	conn   *pgx.Conn
	store  string
	holder string
	ttl    time.Duration
	cancel context.CancelCauseFunc
	ctx    context.Context
	stop   chan struct{}
	done   chan struct{}
	once   sync.Once
}

// leaseKey is the advisory lock's key for a store.
const leaseKeySQL = "hashtextextended('storectl.lease:' || $1, 0)"

// acquireLease takes store's lease (recording the store first), waiting for
// it with opts.wait, else returning a LeaseHeldError.
func acquireLease(ctx context.Context, cfg *pgx.ConnConfig, store, baseURL string, opts leaseOptions) (*Lease, error) {
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	ttl := opts.ttl
	if ttl <= 0 {
		ttl = DefaultLeaseTTL
	}
	l := &Lease{conn: conn, store: store, holder: randomToken(), ttl: ttl}
	if _, err := conn.Exec(ctx, `INSERT INTO storectl.stores (store, base_url, created_at) VALUES ($1, $2, $3)
		ON CONFLICT (store) DO NOTHING`, store, baseURL, stamp(time.Now())); err != nil {
		conn.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	told := false
	for {
		held, err := l.try(ctx, opts.purpose)
		if err == nil && held == nil {
			l.start()
			return l, nil
		}
		if err == nil && !opts.wait {
			err = held
		}
		if err != nil {
			conn.Close(context.WithoutCancel(ctx))
			return nil, err
		}
		if !told && opts.waiting != nil {
			told = true
			opts.waiting(held.Error() + "; waiting for it")
		}
		select {
		case <-ctx.Done():
			conn.Close(context.WithoutCancel(ctx))
			return nil, ctx.Err()
		case <-time.After(min(l.ttl/4, time.Second)):
		}
	}
}

// try takes the lease if it is free, returning who holds it otherwise.
func (l *Lease) try(ctx context.Context, purpose string) (*LeaseHeldError, error) {
	var locked bool
	if err := l.conn.QueryRow(ctx, "SELECT pg_try_advisory_lock("+leaseKeySQL+")", l.store).Scan(&locked); err != nil {
		return nil, err
	}
	held, backendPID, err := l.current(ctx)
	if err != nil {
		return nil, err
	}
	expired := held != nil && !held.Now.Before(held.Holder.Expires)
	switch {
	case locked && (held == nil || expired):
		return nil, l.record(ctx, purpose)
	case locked:
		// The holder's session ended but its heartbeat is fresh: it may
		// be alive, cut off. Wait for the heartbeat to expire.
		_, err = l.conn.Exec(ctx, "SELECT pg_advisory_unlock("+leaseKeySQL+")", l.store)
		return held, err
	case expired:
		// A silent holder whose session still holds the lock: its
		// machine is gone. End its session; the next try takes over.
		_, err = l.conn.Exec(ctx, "SELECT pg_terminate_backend($1)", backendPID)
		return held, err
	case held == nil:
		// Locked by a writer that has not written its row yet.
		return &LeaseHeldError{Store: l.store, Holder: LeaseHolder{Host: "another machine", Purpose: "starting"}, Now: time.Now()}, nil
	}
	return held, nil
}

// current reads the lease row, if any, with the server's clock.
func (l *Lease) current(ctx context.Context) (*LeaseHeldError, int, error) {
	e := &LeaseHeldError{Store: l.store}
	var backendPID int
	err := l.conn.QueryRow(ctx, `SELECT host, pid, purpose, started_at, heartbeat_at, expires_at, backend_pid, now()
		FROM storectl.leases WHERE store = $1`, l.store).Scan(&e.Holder.Host, &e.Holder.PID, &e.Holder.Purpose,
		&e.Holder.Started, &e.Holder.Heartbeat, &e.Holder.Expires, &backendPID, &e.Now)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, 0, nil
	}
	return e, backendPID, err
}

// record writes this process as the holder.
func (l *Lease) record(ctx context.Context, purpose string) error {
	host, _ := os.Hostname()
	_, err := l.conn.Exec(ctx, `INSERT INTO storectl.leases (store, holder, host, pid, backend_pid, purpose, started_at, heartbeat_at, expires_at)
		VALUES ($1, $2, $3, $4, pg_backend_pid(), $5, now(), now(), now() + $6 * interval '1 millisecond')
		ON CONFLICT (store) DO UPDATE SET holder = excluded.holder, host = excluded.host, pid = excluded.pid,
			backend_pid = excluded.backend_pid, purpose = excluded.purpose, started_at = excluded.started_at,
			heartbeat_at = excluded.heartbeat_at, expires_at = excluded.expires_at`,
		l.store, l.holder, host, os.Getpid(), purpose, l.ttl.Milliseconds())
	return err
}

// start renews the heartbeat every TTL/3 until Release.
func (l *Lease) start() {
	l.ctx, l.cancel = context.WithCancelCause(context.Background())
	l.stop, l.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(l.done)
		tick := time.NewTicker(l.ttl / 3)
		defer tick.Stop()
		for {
			select {
			case <-l.stop:
				return
			case <-tick.C:
				if err := l.beat(); err != nil {
					l.cancel(err)
					return
				}
			}
		}
	}()
}

// beat renews the heartbeat; a row no longer ours is a lost lease.
func (l *Lease) beat() error {
	ctx, cancel := context.WithTimeout(context.Background(), l.ttl/3)
	defer cancel()
	tag, err := l.conn.Exec(ctx, `UPDATE storectl.leases SET heartbeat_at = now(), expires_at = now() + $3 * interval '1 millisecond'
		WHERE store = $1 AND holder = $2`, l.store, l.holder, l.ttl.Milliseconds())
	if err == nil && tag.RowsAffected() == 0 {
		return ErrLeaseLost
	}
	if err != nil {
		return fmt.Errorf("%w: %v", ErrLeaseLost, err)
	}
	return nil
}

// Context is ctx, ended as well when the lease is lost: the writer's work
// stops at the next statement.
func (l *Lease) Context(ctx context.Context) (context.Context, context.CancelFunc) {
	merged, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(l.ctx, func() { cancel(context.Cause(l.ctx)) })
	return merged, func() { stop(); cancel(nil) }
}

// Release gives the lease up: the row is removed and the lock freed.
func (l *Lease) Release() {
	l.once.Do(func() {
		close(l.stop)
		<-l.done
		l.cancel(nil)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, _ = l.conn.Exec(ctx, "DELETE FROM storectl.leases WHERE store = $1 AND holder = $2", l.store, l.holder)
		_ = l.conn.Close(ctx) // ends the session, which frees the advisory lock
	})
}

func randomToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
