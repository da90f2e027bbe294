package mirror

import (
	"context"
	"slices"
	"time"
)

// freshnessSQL reads, for a resource (?1), when a full pass (?2) last
// finished, when any pass (full or incremental, ?3) last did, and whether
// a first pass is filling its table (bulk_deferred): NeedsSync's and
// Age's four statements in one.
const freshnessSQL = `SELECT coalesce(max(CASE WHEN kind = ?2 THEN finished_at END), ''), coalesce(max(finished_at), ''),
	(SELECT count(*) FROM bulk_deferred WHERE tbl = ?1)
	FROM sync_journal WHERE resource = ?1 AND outcome = 'done' AND kind IN (?2, ?3)`

// Freshness is NeedsSync and Age at once, what an offline answer reads
// before it answers: the groups never synced (or whose first pass has not
// ended), and when the least recently refreshed of the groups' resources
// was last brought up to date (zero when one never was). One statement a
// resource: on PostgreSQL each is a round trip or two to the server, of
// an answer that should take milliseconds.
func (db *DB) Freshness(ctx context.Context, groups []string) (missing []string, age time.Time, err error) {
	defer db.explain(&err)
	never := false
	for _, g := range groups {
		for _, res := range resourcesOf(g) {
			var full, last string
			var deferred int
			if err := db.sql.QueryRowContext(ctx, freshnessSQL, res.name, Full, Incremental).Scan(&full, &last, &deferred); err != nil {
				return nil, time.Time{}, err
			}
			if (full == "" || deferred > 0) && !slices.Contains(missing, g) {
				missing = append(missing, g)
			}
			switch at := parseStamp(last); {
			case last == "":
				never = true
			case age.IsZero() || at.Before(age):
				age = at
			}
		}
	}
	if never {
		age = time.Time{}
	}
	return missing, age, nil
}
