package mirror

import (
	"context"
	"slices"
	"time"
)

// Freshness is NeedsSync and Age at once, what an offline answer reads
// before it answers: the groups never synced (or whose first pass has not
// ended), and when the least recently refreshed of the groups' resources
// was last brought up to date (zero when one never was). The backend reads
// them as it reads them fastest (a PostgreSQL reader's open read them all
// with its check).
func (db *DB) Freshness(ctx context.Context, groups []string) (missing []string, age time.Time, err error) {
	defer db.explain(&err)
	var tables []string
	for _, g := range groups {
		for _, res := range resourcesOf(g) {
			tables = append(tables, res.name)
		}
	}
	fresh, err := db.conn.Freshness(ctx, tables)
	if err != nil {
		return nil, time.Time{}, err
	}
	never := false
	for _, g := range groups {
		for _, res := range resourcesOf(g) {
			f := fresh[res.name]
			if (f.Full == "" || f.Deferred) && !slices.Contains(missing, g) {
				missing = append(missing, g)
			}
			switch at := parseStamp(f.Last); {
			case f.Last == "":
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
