package mirror

import (
	"context"
	"strconv"

	"github.com/storectl/storectl/internal/ids"
	"github.com/storectl/storectl/internal/mirror/backend"
)

// A pass is the walk's set of ids given (shop.Seen), kept in the mirror
// with the rows rather than in memory: a row a sync pass met has seen_by =
// the pass; a row an export recorded is in export_rows. The question comes
// once a page, with the page's ids, and the same lookup tells storePage
// what the mirror holds of each row (known). Only the rows whose id is not
// a 64-bit integer, rare, are remembered in memory (oddGiven).

// Given reports which of a page's ids the pass gave already, and keeps
// what the mirror holds of them for storePage.
func (p *pass) Given(ctx context.Context, pageIDs []string) (map[string]bool, error) {
	given := map[string]bool{}
	for _, id := range pageIDs {
		if _, ok := ids.Normalize(id); !ok && p.oddGiven[backend.StorableText(id)] { // as odd_rows holds it
			given[id] = true
		}
	}
	nums, err := numericIDs(pageIDs)
	if err != nil {
		return nil, err
	}
	p.known = map[int64]held{}
	seen, err := p.lookup(ctx, nums)
	for _, n := range seen {
		given[strconv.FormatInt(n, 10)] = true
	}
	return given, err
}

// numericIDs are a page's ids that are 64-bit integers, as the mirror
// keys its rows: the others are odd (kept in odd_rows, remembered in
// memory, looked up by no query).
func numericIDs(pageIDs []string) ([]int64, error) {
	var nums []int64
	for _, id := range pageIDs {
		if _, ok := ids.Normalize(id); !ok {
			continue
		}
		n, err := rowID(id)
		if err != nil {
			return nil, err
		}
		nums = append(nums, n)
	}
	return nums, nil
}

// Add counts the rows about to be given: storePage records them.
func (p *pass) Add(given []string) {
	p.given += len(given)
	for _, id := range given {
		if _, ok := ids.Normalize(id); !ok {
			if p.oddGiven == nil {
				p.oddGiven = map[string]bool{}
			}
			p.oddGiven[backend.StorableText(id)] = true
		}
	}
}

// Len is how many rows the pass has given, over all its runs.
func (p *pass) Len() int { return p.given }

// lookup reads what the mirror holds of the rows nums into p.known, and
// returns those the pass gave already.
func (p *pass) lookup(ctx context.Context, nums []int64) (seen []int64, err error) {
	if len(nums) == 0 {
		return nil, nil
	}
	if p.known == nil {
		p.known = map[int64]held{}
	}
	// A row the mirror does not hold is known too, as new: storePage then
	// asks no second time (every row of a first sync is new).
	for _, n := range nums {
		p.known[n] = held{}
	}
	if p.floor.below(nums) {
		return nil, nil
	}
	if carried := p.carried(nums); carried != nil {
		seen = p.holdCarried(carried)
		return p.holdPage(nums, seen, p.lastRows), nil
	}
	rows, err := p.db.conn.Lookup(ctx, p.seenQuery(), idListArg(nums), p.id) // a page's ids: storePage checks the stop
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if seen, err = p.hold(rows); err != nil {
		return nil, err
	}
	if p.sent == nil {
		return seen, nil
	}
	return p.holdPage(nums, seen, p.sent.rows), nil
}

// holdPage adds to what a lookup found the rows of a page it may not see
// (the page in flight, on another connection, before it commits; the page
// written after a carried lookup ran): each as that page stores it, given
// by this pass.
func (p *pass) holdPage(nums, seen []int64, page map[int64]string) []int64 {
	for _, n := range nums {
		list, ok := page[n]
		if !ok {
			continue
		}
		if !p.known[n].seen {
			seen = append(seen, n)
		}
		p.known[n] = held{exists: true, seen: true, list: list}
	}
	return seen
}

// idListArg is the lookup's list of ids: a JSON array.
func idListArg(nums []int64) string {
	b := make([]byte, 0, 16*len(nums)+2)
	b = append(b, '[')
	for i, n := range nums {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, n, 10)
	}
	return string(append(b, ']'))
}

// seenQuery is the pass's lookup: a sync's asks which rows it met, an
// export's which it recorded.
func (p *pass) seenQuery() string {
	if p.purpose == purposeExport {
		return p.db.rows(p.res).SeenExport
	}
	return p.db.rows(p.res).SeenSync
}

// hold keeps the rows of a lookup's answer in p.known, and returns those
// the pass gave already.
func (p *pass) hold(rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}) (seen []int64, err error) {
	for rows.Next() {
		var r backend.SeenRow
		if err := rows.Scan(&r.ID, &r.List, &r.Gone, &r.Seen); err != nil {
			return nil, err
		}
		seen = p.holdRow(r, seen)
	}
	return seen, rows.Err()
}

// holdCarried keeps the rows of an answer a page carried, as hold does.
func (p *pass) holdCarried(a *backend.Ahead) (seen []int64) {
	for _, r := range a.Rows {
		seen = p.holdRow(r, seen)
	}
	return seen
}

func (p *pass) holdRow(r backend.SeenRow, seen []int64) []int64 {
	p.known[r.ID] = held{exists: true, gone: r.Gone, seen: r.Seen, list: r.List}
	if r.Seen {
		seen = append(seen, r.ID)
	}
	return seen
}

// countGiven finds, for a continued pass, how many rows its earlier runs
// gave, and the odd ones among them.
func (p *pass) countGiven(ctx context.Context) error {
	if p.purpose == purposeExport {
		// Odd rows are not recorded in export_rows: a resumed export
		// gives them again (docs/mirror.md, odd_rows).
		return p.db.sql().QueryRowContext(ctx, p.db.q.CountExported, p.id).Scan(&p.given)
	}
	if err := p.db.sql().QueryRowContext(ctx, p.db.q.CountSeen(p.res.name), p.id).Scan(&p.given); err != nil {
		return err
	}
	rows, err := p.db.sql().QueryContext(ctx, p.db.q.OddSeen, p.res.name, p.id)
	if err != nil {
		return err
	}
	defer rows.Close()
	p.oddGiven = map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		p.oddGiven[id] = true
		p.given++
	}
	return rows.Err()
}
