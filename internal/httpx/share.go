package httpx

import (
	"fmt"
	"math"
)

// WithShare returns a client that sends only while the token's window
// (every process's requests, as the pace file holds them, within the
// configured budget or the smaller one the server announced) has fewer
// than share of its budget in it: a background job on share 0.8 of 30 a
// minute sends at most 24 a minute and, whatever else runs, leaves 6 to a
// person's commands. share outside (0, 1), or pacing off, returns c.
func (c *Client) WithShare(share float64) *Client {
	if c.pacer == nil || share <= 0 || share >= 1 {
		return c
	}
	cp := *c
	p := c.pacer
	p.mu.Lock()
	store := p.store
	p.mu.Unlock()
	cp.pacer = newPacer(p.limit, store, p.fallback, p.clock, p.trace, p.status, p.notice)
	cp.pacer.share = share
	return &cp
}

// shareOf is the part of a window's budget n this pacer may fill: at
// least one request, else a small budget would stop it for good.
func (p *pacer) shareOf(n int) int {
	if p.share <= 0 || p.share >= 1 {
		return n
	}
	return max(1, int(math.Floor(float64(n)*p.share+1e-9)))
}

// shareNote qualifies the pace in a status line when this pacer has a
// share of the budget full.
func (p *pacer) shareNote(full int) string {
	if p.share <= 0 || p.share >= 1 {
		return ""
	}
	return fmt.Sprintf(" (%d%% of %d, the rest left to other commands)", int(math.Round(p.share*100)), full)
}
