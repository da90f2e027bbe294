package httpx

import "fmt"

// WithShare is a client that paces itself to percent of the token's
// budget: it sends only while the window, counting every user of the token
// in every process, holds fewer requests than that share of it. The rest
// stays free for the others: a person's `bis get` beside a watcher or a
// detail refresh of hours is never starved. 0 or 100 (or more) is the
// whole budget; an unpaced client stays unpaced.
func (c *Client) WithShare(percent int) *Client {
	if c.pacer == nil || percent <= 0 || percent >= 100 {
		return c
	}
	cp := *c
	cp.pacer = c.pacer.withShare(percent)
	return &cp
}

// withShare is a pacer on the same window that fills it to percent only.
func (p *pacer) withShare(percent int) *pacer {
	p.mu.Lock()
	store := p.store
	p.mu.Unlock()
	np := newPacer(p.limit, store, p.fallback, p.clock, p.trace, p.status, p.notice)
	np.share = percent
	return np
}

// allowance is how full this pacer may fill a window of n requests: its
// share of n (at least one request), or all of it.
func (p *pacer) allowance(n int) int {
	if p.share <= 0 || p.share >= 100 {
		return n
	}
	return max(1, n*p.share/100)
}

// shareNote qualifies the pace in a status line when it is a share of the
// window's n.
func (p *pacer) shareNote(n int) string {
	if p.share <= 0 || p.share >= 100 {
		return ""
	}
	return fmt.Sprintf(" (a %d%% share of %d)", p.share, n)
}
