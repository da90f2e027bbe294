package mirror

import (
	"slices"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// A page's lookup of its ids (seen.go) is a round trip to a database
// server, and the walk waits for it before it can store the page. So a
// page sent to a server carries the lookup of the page the walk reads
// after the next one (backend.LookAhead, shop.WalkPage.Later), run in its
// transaction: once that page settles, which the next page's send waits
// for anyway, the answer is there. It saw every page up to the one that
// carried it; the page written since is held from memory, as the page in
// flight is for a lookup of its own (holdPage). Should the walk read
// another page, or more pages be written between, the answer is dropped
// and the page looked up as before.

// carriedLookup is a lookup a page carried: the ids it asked for, its
// answer, and the pass's count of pages written with that page.
type carriedLookup struct {
	nums  []int64
	ahead *backend.Ahead
	page  int
}

// carry has tx, the transaction of the pass's page number page, run the
// lookup of later (the walk's page after the next), when the backend
// carries lookups. It returns nil when it does not.
func (p *pass) carry(tx backend.Tx, later []string, page int) *carriedLookup {
	la, ok := tx.(backend.LookAhead)
	if !ok || len(later) == 0 {
		return nil
	}
	nums, err := numericIDs(later)
	if err != nil || len(nums) == 0 || p.floor.below(nums) {
		return nil
	}
	return &carriedLookup{nums: nums, ahead: la.LookAhead(p.seenQuery(), idListArg(nums), p.id), page: page}
}

// carried is the answer a page carried for nums, when it still tells what
// the mirror holds but for the last page written: it was carried by the
// page before that one, which committed. Answers no longer of use are
// dropped.
func (p *pass) carried(nums []int64) *backend.Ahead {
	var found *backend.Ahead
	keep := p.carries[:0]
	for _, c := range p.carries {
		switch {
		case c.page == p.pages-1 && c.ahead.Ready && slices.Equal(c.nums, nums):
			found = c.ahead
		case c.page >= p.pages:
			keep = append(keep, c)
		}
	}
	p.carries = keep
	return found
}
