package httpx

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// learntLimitLife is how long a budget the server announced is trusted
// without being seen again: a later answer repeats it (or its absence
// lets it lapse), and a store whose plan changed is relearnt by the next
// day's first answer.
const learntLimitLife = 24 * time.Hour

// serverBudget is what an answer's X-RateLimit-Limit and
// X-RateLimit-Remaining headers say (the spec names both; Laravel's
// throttle sends them with every answer): the requests a window allows,
// and how many of them are left in the server's current window. -1 when
// the header is missing or not a whole number.
type serverBudget struct {
	limit, remaining int
}

func budgetOf(h http.Header) serverBudget {
	return serverBudget{limit: headerCount(h, "X-RateLimit-Limit"), remaining: headerCount(h, "X-RateLimit-Remaining")}
}

func headerCount(h http.Header, name string) int {
	v := strings.TrimSpace(h.Get(name))
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 1_000_000 {
		return -1
	}
	return n
}

// observe records an answer's budget, which arrived at now.
//   - A limit is kept whatever its size; budget() takes the smaller of it
//     and the configured one, so a server allowing 2 a window is paced to
//     2 however many rate_limit says.
//   - limit − remaining is how many requests the server counted in its
//     window. More than this state holds means someone else uses the token
//     (another machine, the store's own app): the excess is kept as
//     foreign requests that hold the window until a window from now.
func (st *paceState) observe(b serverBudget, now int64, span time.Duration) {
	if b.limit > 0 {
		st.ServerLimit, st.ServerLimitSeen = b.limit, now
	}
	if b.limit < 0 || b.remaining < 0 || b.remaining > b.limit {
		return
	}
	if foreign := b.limit - b.remaining - len(st.Slots); foreign > 0 {
		st.Foreign, st.ForeignUntil = foreign, now+int64(span)
	}
}

// budget is the number of requests a window allows: the configured
// number, or the server's when it announced fewer.
func (st *paceState) budget(configured int) int {
	if st.ServerLimit > 0 && st.ServerLimit < configured {
		return st.ServerLimit
	}
	return configured
}

// pruneLearnt drops a server limit not seen for a day (or seen in the
// future after a clock jump) and foreign requests whose window has passed.
func (st *paceState) pruneLearnt(now int64, span time.Duration) {
	if st.ServerLimitSeen > now || now-st.ServerLimitSeen > int64(learntLimitLife) {
		st.ServerLimit, st.ServerLimitSeen = 0, 0
	}
	if st.ForeignUntil <= now || st.ForeignUntil > now+int64(span) {
		st.Foreign, st.ForeignUntil = 0, 0
	}
}

// expiries are the times the requests in the window stop counting, the
// foreign ones included.
func (st *paceState) expiries(now int64, span time.Duration) []int64 {
	e := make([]int64, 0, len(st.Slots)+st.Foreign)
	for _, s := range st.Slots {
		e = append(e, s.countedAt(now)+int64(span))
	}
	for range min(st.Foreign, maxForeign) {
		e = append(e, st.ForeignUntil)
	}
	return e
}

// maxForeign bounds what a hostile answer (X-RateLimit-Limit: 1000000,
// Remaining: 0) can make a state hold.
const maxForeign = 10_000

// learntNote qualifies the pace in a status line when the budget n is the
// server's, not the configured one.
func (p *pacer) learntNote(n int) string {
	if n >= p.limit.N {
		return ""
	}
	return fmt.Sprintf(" (the server's X-RateLimit-Limit; rate_limit says %d)", p.limit.N)
}

// tellLearnt says once per process, terminal or not, that the server
// allows fewer requests than rate_limit, and what pacing does about it.
func (p *pacer) tellLearnt(n int) {
	p.mu.Lock()
	told := p.learnt == n
	p.learnt = n
	p.mu.Unlock()
	if told {
		return
	}
	p.trace.notef("the server announced X-RateLimit-Limit: %d, below rate_limit %d/%s", n, p.limit.N, p.limit.Per)
	p.notice(fmt.Sprintf("note: the server allows %d requests a window (X-RateLimit-Limit), fewer than the %d per %s of rate_limit: pacing to %d per %s; if its window is shorter than %s, set rate_limit to %d/WINDOW to match it",
		n, p.limit.N, p.limit.Per, n, p.limit.Per, p.limit.Per, n))
}
