package mirror

import (
	"context"
	"database/sql"
	"math"
)

// A page's lookup (seen.go) asks the mirror which of the page's rows it
// holds. A table holds no id below its least one, so a page whose ids are
// all below it holds only new rows, none given by the pass: a first sync
// reads the list newest first, each page's ids below the last's, and asks
// the mirror nothing, where each page's lookup was a share of a first
// sync's work (on PostgreSQL a statement in every page's transaction, or a
// round trip of its own). A row the list pushes down while it is read
// (new submissions at its top) comes again at an id above the floor, and
// is looked up as before.

// idFloor is the least id the table holds of the store, read when the
// pass's run begins and lowered by every page it writes (the page in
// flight too, as the table holds it once committed); set is false where
// it is not known (an export's pass, whose lookup asks what the export
// recorded). fromEmpty: the table held none of the store's rows when the
// run began, so every row it holds at the end is one the run met.
type idFloor struct {
	set, fromEmpty bool
	lowest         int64
}

// startFloor reads the table's least id, for a sync's pass.
func (p *pass) startFloor(ctx context.Context) error {
	if p.purpose != purposeSync {
		return nil
	}
	var lowest sql.NullInt64
	if err := p.db.sql().QueryRowContext(ctx, p.db.q.LowestID(p.res.name)).Scan(&lowest); err != nil {
		return err
	}
	p.floor = idFloor{set: true, fromEmpty: !lowest.Valid, lowest: math.MaxInt64}
	if lowest.Valid {
		p.floor.lowest = lowest.Int64
	}
	return nil
}

// below reports whether every id of nums lies below the floor: none is
// in the table.
func (f idFloor) below(nums []int64) bool {
	if !f.set {
		return false
	}
	for _, n := range nums {
		if n >= f.lowest {
			return false
		}
	}
	return true
}

// lower takes in the ids of a page written.
func (f *idFloor) lower(rows []pageRow) {
	for _, r := range rows {
		if !r.odd && r.id < f.lowest {
			f.lowest = r.id
		}
	}
}
