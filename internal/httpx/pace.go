package httpx

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/storectl/storectl/internal/ratelimit"
)

// maxTrackedFlight bounds how long an unfinished slot may hold the window
// when its owner vanished or the wall clock jumped back.
const maxTrackedFlight = 10 * time.Minute

// slot is one request as the server may have counted it. While the request
// is in flight the server may count it at any moment up to now, so its time
// is now (bounded by Until, the end of the attempt); once the answer
// arrived, Done is an upper bound of when the server counted it.
type slot struct {
	ID    uint64 `json:"id"`
	Sent  int64  `json:"sent"`
	Until int64  `json:"until,omitempty"`
	Done  int64  `json:"done,omitempty"`
}

func (s slot) countedAt(now int64) int64 {
	if s.Done != 0 {
		return s.Done
	}
	return min(now, s.Until)
}

// paceState is the window shared by everything using one token.
type paceState struct {
	Slots []slot `json:"slots"`
	// BlockedUntil follows a 429: every user of the token waits out the
	// server's Retry-After, not only the request that got it.
	BlockedUntil int64 `json:"blocked_until,omitempty"`
}

// prune drops slots the server can no longer count in a window that holds
// now, and repairs times a backwards clock jump left in the future.
func (st *paceState) prune(now int64, span time.Duration) {
	kept := st.Slots[:0]
	for _, s := range st.Slots {
		if s.Sent <= 0 {
			continue
		}
		s.Sent = min(s.Sent, now)
		s.Done = min(s.Done, now)
		if s.Done == 0 {
			s.Until = min(max(s.Until, s.Sent), now+int64(maxTrackedFlight))
		}
		if s.countedAt(now)+int64(span) > now {
			kept = append(kept, s)
		}
	}
	st.Slots = kept
	st.BlockedUntil = min(st.BlockedUntil, now+int64(maxRetryAfter))
}

// waitFor is how long until enough slots expire to leave one free for a
// budget of n.
func (st *paceState) waitFor(n int, now int64, span time.Duration) time.Duration {
	if len(st.Slots) < n {
		return 0
	}
	expiries := make([]int64, len(st.Slots))
	for i, s := range st.Slots {
		expiries[i] = s.countedAt(now) + int64(span)
	}
	slices.Sort(expiries)
	return time.Duration(expiries[len(st.Slots)-n] - now)
}

// paceStore keeps the window of one token. update runs fn on the current
// state with every other user of the store excluded, then keeps the result.
type paceStore interface {
	update(ctx context.Context, fn func(*paceState)) error
}

type memoryStore struct {
	mu    sync.Mutex
	state paceState
}

func (m *memoryStore) update(ctx context.Context, fn func(*paceState)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	fn(&m.state)
	return nil
}

// stores shares one store per token (or state file) among every Client of
// the process, so that goroutines draw on a single budget.
var stores = struct {
	sync.Mutex
	m map[string]paceStore
}{m: map[string]paceStore{}}

func sharedStore(key string, create func() paceStore) paceStore {
	stores.Lock()
	defer stores.Unlock()
	s, ok := stores.m[key]
	if !ok {
		s = create()
		stores.m[key] = s
	}
	return s
}

// pacer keeps requests within Limit as the server counts them.
type pacer struct {
	limit  ratelimit.Limit
	margin time.Duration
	clock  *clock
	trace  *tracer
	status func(string) // never nil

	mu       sync.Mutex
	store    paceStore
	fallback paceStore // in-process window once the shared file fails
}

func newPacer(limit ratelimit.Limit, store, fallback paceStore, clk *clock, trace *tracer, status func(string)) *pacer {
	return &pacer{
		limit:    limit,
		margin:   max(limit.Per/100, 20*time.Millisecond),
		clock:    clk,
		trace:    trace,
		status:   status,
		store:    store,
		fallback: fallback,
	}
}

// span is how long a slot counts: the window plus a margin for the
// server's clock and rounding.
func (p *pacer) span() time.Duration { return p.limit.Per + p.margin }

// acquire waits until the budget has room, then records a request about to
// be sent whose attempt lasts at most flight. It returns the slot to finish.
func (p *pacer) acquire(ctx context.Context, flight time.Duration) (uint64, error) {
	for {
		var id uint64
		var wait time.Duration
		var blocked bool
		err := p.update(ctx, func(st *paceState) {
			id, wait, blocked = 0, 0, false
			now := p.clock.now().UnixNano()
			st.prune(now, p.span())
			if st.BlockedUntil > now {
				wait, blocked = time.Duration(st.BlockedUntil-now), true
				return
			}
			if wait = st.waitFor(p.limit.N, now, p.span()); wait > 0 {
				return
			}
			id = rand.Uint64() | 1
			st.Slots = append(st.Slots, slot{ID: id, Sent: now, Until: now + int64(flight)})
		})
		if err != nil {
			return 0, err
		}
		if id != 0 {
			return id, nil
		}
		msg := fmt.Sprintf("pacing to %d requests per %s: next request in %s", p.limit.N, p.limit.Per, humanWait(wait))
		if blocked {
			msg = "rate limited by the server: next request in " + humanWait(wait)
		}
		p.trace.notef("%s", msg)
		p.status(msg)
		err = p.clock.sleep(ctx, wait)
		p.status("")
		if err != nil {
			return 0, err
		}
	}
}

// finish moves a slot to the time its answer arrived. It runs after the
// caller's context may have ended, so it must not depend on it.
func (p *pacer) finish(id uint64) {
	_ = p.update(context.Background(), func(st *paceState) {
		now := p.clock.now().UnixNano()
		for i := range st.Slots {
			if st.Slots[i].ID == id {
				st.Slots[i].Done = max(now, st.Slots[i].Sent)
				st.Slots[i].Until = 0
				return
			}
		}
	})
}

// block makes every user of the token wait until t (after a 429).
func (p *pacer) block(t time.Time) {
	_ = p.update(context.Background(), func(st *paceState) {
		st.BlockedUntil = max(st.BlockedUntil, t.UnixNano())
	})
}

func (p *pacer) update(ctx context.Context, fn func(*paceState)) error {
	p.mu.Lock()
	store := p.store
	p.mu.Unlock()
	err := store.update(ctx, fn)
	if err == nil || ctx.Err() != nil || store == p.fallback {
		return err
	}
	p.trace.notef("pacing state unusable (%v): pacing within this process only", err)
	p.mu.Lock()
	p.store = p.fallback
	p.mu.Unlock()
	return p.fallback.update(ctx, fn)
}
