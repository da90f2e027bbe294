package httpx

import (
	"bytes"
	"context"
	"encoding/json"
)

// PaceStore keeps one token's pacing window where every storectl that uses
// the token sees it, on any machine (the team's PostgreSQL mirror keeps it
// in a table; see package pgpace). The window travels as JSON that only
// this package reads, so a store never depends on its fields.
type PaceStore interface {
	// Update reads the stored window (nil when there is none yet), hands it
	// to fn with every other user of the token excluded until Update
	// returns, and stores what fn returns; fn returns nil when nothing
	// changed, and then nothing is written.
	Update(ctx context.Context, fn func(stored []byte) []byte) error
}

// TokenKey names a token to a PaceStore: its SHA-256, never the token. A
// store that others can read keys it again with a secret of its own.
func TokenKey(token string) string { return tokenKey(token) }

// sharedPace adapts a PaceStore to the pacer.
type sharedPace struct{ store PaceStore }

func (s sharedPace) update(ctx context.Context, fn func(*paceState)) error {
	return s.store.Update(ctx, func(stored []byte) []byte {
		var st paceState
		if len(stored) > 0 && json.Unmarshal(stored, &st) != nil {
			st = paceState{} // a damaged window reads as empty: pacing never stops requests
		}
		// Compared as this package writes it: a store may keep the JSON
		// in another form (jsonb reorders keys).
		before, _ := json.Marshal(st)
		fn(&st)
		after, err := json.Marshal(st)
		if err != nil || bytes.Equal(before, after) && len(stored) > 0 {
			return nil
		}
		return after
	})
}
