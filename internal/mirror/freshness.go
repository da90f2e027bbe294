package mirror

import (
	"context"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// freshnessSQL reads, for a resource (?1), when a full pass (?2) last
// finished, when any pass (full or incremental, ?3) last did, and whether
// a first pass is filling its table (bulk_deferred): NeedsSync's and
// Age's four statements in one.
const freshnessSQL = `SELECT coalesce(max(CASE WHEN kind = ?2 THEN finished_at END), ''), coalesce(max(finished_at), ''),
	(SELECT count(*) FROM bulk_deferred WHERE tbl = ?1)
	FROM sync_journal WHERE resource = ?1 AND outcome = 'done' AND kind IN (?2, ?3)`

// pgFreshnessSQL is freshnessSQL for every resource of the store ($1) at
// once, as a PostgreSQL reader's open reads it beside its check (checkPG):
// a resource no pass of either kind ($2, $3) finished has no row.
const pgFreshnessSQL = `SELECT j.resource, coalesce(max(CASE WHEN j.kind = $2 THEN j.finished_at END), ''), coalesce(max(j.finished_at), ''),
	(SELECT count(*) FROM storectl.bulk_deferred d WHERE d.store = $1 AND d.tbl = j.resource)
	FROM storectl.sync_journal j WHERE j.store = $1 AND j.outcome = 'done' AND j.kind IN ($2, $3) GROUP BY j.resource`

// freshness is one resource's row of freshnessSQL.
type freshness struct {
	full, last string
	deferred   int
}

// readPGFreshness reads pgFreshnessSQL's rows, the next result of br.
func readPGFreshness(br pgx.BatchResults) (map[string]freshness, error) {
	rows, err := br.Query()
	if err != nil {
		return nil, err
	}
	out := map[string]freshness{}
	var res string
	var f freshness
	_, err = pgx.ForEachRow(rows, []any{&res, &f.full, &f.last, &f.deferred}, func() error {
		out[res] = f
		return nil
	})
	return out, err
}

// Freshness is NeedsSync and Age at once, what an offline answer reads
// before it answers: the groups never synced (or whose first pass has not
// ended), and when the least recently refreshed of the groups' resources
// was last brought up to date (zero when one never was). One statement a
// resource; none on a PostgreSQL reader, whose open read them all with its
// check (the first Freshness after the open uses those).
func (db *DB) Freshness(ctx context.Context, groups []string) (missing []string, age time.Time, err error) {
	defer db.explain(&err)
	read, fresh := db.freshness, db.fresh
	db.fresh = nil
	if fresh != nil {
		read = func(_ context.Context, res *resource) (freshness, error) { return fresh[res.name], nil }
	}
	never := false
	for _, g := range groups {
		for _, res := range resourcesOf(g) {
			f, err := read(ctx, res)
			if err != nil {
				return nil, time.Time{}, err
			}
			if (f.full == "" || f.deferred > 0) && !slices.Contains(missing, g) {
				missing = append(missing, g)
			}
			switch at := parseStamp(f.last); {
			case f.last == "":
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

// freshness reads res's row of freshnessSQL.
func (db *DB) freshness(ctx context.Context, res *resource) (f freshness, err error) {
	err = db.sql.QueryRowContext(ctx, freshnessSQL, res.name, Full, Incremental).Scan(&f.full, &f.last, &f.deferred)
	return f, err
}
