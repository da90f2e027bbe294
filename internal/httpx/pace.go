package httpx

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
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
	// PID is the process that sent the request, so a process held back
	// by others' requests can say so.
	PID int `json:"pid,omitempty"`
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
	// server's Retry-After, not only the request that got it. BlockedAt is
	// when that 429 arrived and BlockedBy the process that got it: a block
	// without a 429 behind it that fits the longest Retry-After honoured
	// (a stale or hand-edited file) is discarded, never waited out.
	BlockedUntil int64 `json:"blocked_until,omitempty"`
	BlockedAt    int64 `json:"blocked_at,omitempty"`
	BlockedBy    int   `json:"blocked_by,omitempty"`
	// ServerLimit is the X-RateLimit-Limit the server last announced, at
	// ServerLimitSeen: pacing keeps to it when it is below rate_limit.
	ServerLimit     int   `json:"server_limit,omitempty"`
	ServerLimitSeen int64 `json:"server_limit_seen,omitempty"`
	// Foreign counts requests the server counted that no slot accounts
	// for (X-RateLimit-Remaining lower than this state explains); they
	// hold the window until ForeignUntil.
	Foreign      int   `json:"foreign,omitempty"`
	ForeignUntil int64 `json:"foreign_until,omitempty"`
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
	st.pruneLearnt(now, span)
	if st.BlockedUntil > now && (st.BlockedAt <= 0 || st.BlockedAt > now ||
		st.BlockedUntil-st.BlockedAt > int64(maxRetryAfter)) {
		st.BlockedUntil, st.BlockedAt, st.BlockedBy = 0, 0, 0
	}
}

// othersHold reports whether, without other processes' requests, this one
// would have room in a budget of n: the wait is theirs.
func (st *paceState) othersHold(n, pid int) bool {
	own := 0
	for _, s := range st.Slots {
		if s.PID == pid {
			own++
		}
	}
	return own < n
}

// waitFor is how long until enough requests leave the window to leave
// room for one more in a budget of n.
func (st *paceState) waitFor(n int, now int64, span time.Duration) time.Duration {
	expiries := st.expiries(now, span)
	if len(expiries) < n {
		return 0
	}
	slices.Sort(expiries)
	return max(0, time.Duration(expiries[len(expiries)-n]-now))
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
	notice func(string) // never nil
	pid    int

	mu       sync.Mutex
	store    paceStore
	fallback paceStore // in-process window once the shared file fails
	noticed  bool      // the wait for other processes was told once
	learnt   int       // the smaller budget the server announced, once told
	// share is the fraction of each window's budget this pacer may fill
	// (0: all of it); the window it counts is still everyone's.
	share float64
}

func newPacer(limit ratelimit.Limit, store, fallback paceStore, clk *clock, trace *tracer, status, notice func(string)) *pacer {
	if notice == nil {
		notice = func(string) {}
	}
	return &pacer{
		limit:    limit,
		margin:   max(limit.Per/100, 20*time.Millisecond),
		clock:    clk,
		trace:    trace,
		status:   status,
		notice:   notice,
		pid:      os.Getpid(),
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
		var blockedBy, n, full int
		var others bool
		err := p.update(ctx, func(st *paceState) {
			id, wait, blockedBy, others = 0, 0, 0, false
			now := p.clock.now().UnixNano()
			st.prune(now, p.span())
			full = st.budget(p.limit.N)
			n = p.shareOf(full)
			if st.BlockedUntil > now {
				wait, blockedBy = time.Duration(st.BlockedUntil-now), st.BlockedBy
				return
			}
			if wait = st.waitFor(n, now, p.span()); wait > 0 {
				others = st.othersHold(n, p.pid)
				return
			}
			id = rand.Uint64() | 1
			st.Slots = append(st.Slots, slot{ID: id, Sent: now, Until: now + int64(flight), PID: p.pid})
		})
		if err != nil {
			return 0, err
		}
		if id != 0 {
			return id, nil
		}
		render := func(left time.Duration) string {
			return fmt.Sprintf("pacing to %d requests per %s%s%s: next request in %s", n, p.limit.Per, p.shareNote(full), p.learntNote(full), humanWait(left))
		}
		if blockedBy != 0 {
			render = func(left time.Duration) string {
				return "rate limited by the server: next request in " + humanWait(left)
			}
		}
		p.trace.notef("%s", render(wait))
		p.tellShared(wait, blockedBy, others)
		if err := countdown(ctx, p.clock, p.status, wait, render); err != nil {
			return 0, err
		}
	}
}

// tellShared says once per process, terminal or not, that the wait comes
// from other storectl processes: a script blocked for a minute with no
// output would look hung.
func (p *pacer) tellShared(wait time.Duration, blockedBy int, others bool) {
	var msg string
	switch {
	case blockedBy != 0 && blockedBy != p.pid:
		msg = fmt.Sprintf("waiting %s for the shop API rate limit: the server answered another storectl process with HTTP 429 (Too Many Requests)", humanWait(wait))
	case others && wait >= time.Second:
		msg = fmt.Sprintf("waiting %s for the shop API rate limit, shared with other storectl processes", humanWait(wait))
	default:
		return
	}
	p.mu.Lock()
	told := p.noticed
	p.noticed = true
	p.mu.Unlock()
	if !told {
		p.notice(msg)
	}
}

// finish moves a slot to the time its answer arrived and records the
// budget the answer announced (b; the zero value when there was no
// answer). It runs after the caller's context may have ended, so it must
// not depend on it.
func (p *pacer) finish(id uint64, b serverBudget) {
	var before, after int
	_ = p.update(context.Background(), func(st *paceState) {
		now := p.clock.now().UnixNano()
		for i := range st.Slots {
			if st.Slots[i].ID == id {
				st.Slots[i].Done = max(now, st.Slots[i].Sent)
				st.Slots[i].Until = 0
				break
			}
		}
		before = st.budget(p.limit.N)
		st.observe(b, now, p.span())
		after = st.budget(p.limit.N)
	})
	if after < before {
		p.tellLearnt(after)
	}
}

// block makes every user of the token wait until t (after a 429).
func (p *pacer) block(t time.Time) {
	_ = p.update(context.Background(), func(st *paceState) {
		if until := t.UnixNano(); until > st.BlockedUntil {
			st.BlockedUntil, st.BlockedAt, st.BlockedBy = until, p.clock.now().UnixNano(), p.pid
		}
	})
}

// timeFor is the least time from now until n more requests can all have
// been sent: the requests already in the window and any server block
// count, then the pace. Only the first few windows are walked slot by
// slot; past them every window takes N more.
func (p *pacer) timeFor(n int) time.Duration {
	if n <= 0 {
		return 0
	}
	// A copy is pruned, not the store's state: a look leaves the file as
	// it was, so it is not rewritten.
	var st paceState
	if err := p.update(context.Background(), func(s *paceState) {
		st = *s
		st.Slots = slices.Clone(s.Slots)
	}); err != nil {
		return p.limit.MinDuration(n)
	}
	now := p.clock.now().UnixNano()
	st.prune(now, p.span())
	budget := p.shareOf(st.budget(p.limit.N))
	span := int64(p.span())
	t := max(now, st.BlockedUntil)
	expiries := st.expiries(now, p.span())
	slices.Sort(expiries)
	walked := min(n, 2*budget)
	for range walked {
		if len(expiries) >= budget {
			t = max(t, expiries[len(expiries)-budget])
		}
		for len(expiries) > 0 && expiries[0] <= t {
			expiries = expiries[1:]
		}
		expiries = append(expiries, t+span)
	}
	rest := int64(n - walked)
	t += (rest + int64(budget) - 1) / int64(budget) * span
	return time.Duration(t - now)
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
	p.notice(sharingLost(err))
	p.mu.Lock()
	p.store = p.fallback
	p.mu.Unlock()
	return p.fallback.update(ctx, fn)
}

// sharingLost is the one-line warning when the budget can no longer be
// shared: other storectl processes may then draw on it unseen.
func sharingLost(err error) string {
	return fmt.Sprintf("warning: cannot share the shop API rate limit with other storectl processes (%v); pacing within this process only, so storectl commands run at the same time may get HTTP 429", err)
}
