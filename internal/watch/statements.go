package watch

import (
	"strconv"

	"github.com/storectl/storectl/internal/mirror"
)

// watchSQL are storectl watch's statements in one dialect (parameters in
// the order each comment gives).
type watchSQL struct {
	// Watched (list): how many watches the list has. StartWatch (list,
	// watched_since, clock_at) watches it unless it is. Clock (list) and
	// SetClock (clock_at, list): when the rules' dates were last checked.
	Watched, StartWatch, Clock, SetClock string
	// BaseURL: the store's, as the mirror records it ('' when none).
	BaseURL string
	// InsertEvent (id, type, resource, row_id, occurred_at, detected_at,
	// data): an event, unless its id is recorded.
	InsertEvent string
	// NextEvent: the first pending event (eventCols); Events (state or ''
	// for any, the last n or 0 for all): events, newest first.
	NextEvent string
	Events    func(state bool, last bool) string
	// Delivered (delivered_at, seq); Failed (first_failed_at,
	// next_attempt_at, last_error, seq); Parked (first_failed_at,
	// last_error, seq); ResendID (id); ResendParked; Prune (before);
	// Counts: pending and parked.
	Delivered, Failed, Parked, ResendID, ResendParked, Prune, Counts string
	// Replay (list; since): the live rows (id, list_json) of a list that
	// changed since then, by id; "" for a list without.
	Replay func(list string) string
	// LiveRules: the live rules (id, list_json), by id.
	LiveRules string
	// PendingDemand (grouped by product): per variant (or product), its
	// key, product_id, variant_id, the titles and newest created_at of its
	// newest pending submission, and how many are pending.
	PendingDemand func(byProduct bool) string
	// AlertStates (alert): key, above, crossings; SaveAlert (alert, key,
	// above, crossings).
	AlertStates, SaveAlert string
	// EngagementWatched (id, whether the row had a detail): whether the
	// submissions list is watched and the row is not older than the watch
	// (a first detail of an older row is history); DetailJSON (id).
	EngagementWatched, DetailJSON string
}

const eventCols = `seq, id, type, resource, row_id, occurred_at, detected_at, data, state, attempts,
	coalesce(first_failed_at, ''), coalesce(next_attempt_at, ''), coalesce(last_error, ''), coalesce(delivered_at, '')`

const resendSet = `UPDATE outbox SET state = 'pending', attempts = 0, first_failed_at = NULL, next_attempt_at = NULL,
	last_error = NULL, delivered_at = NULL`

// pendingDemandSQL counts the live pending submissions per variant (or
// product), with the titles of the newest: the first row of each group
// newest first (a row without a date last).
func pendingDemandSQL(byProduct bool) string {
	group := "variant_id"
	if byProduct {
		group = "product_id"
	}
	return `SELECT k, product_id, variant_id, product_title, variant_title, newest, n FROM (
		SELECT ` + group + ` AS k, product_id, variant_id, product_title, variant_title,
			max(created_at) OVER g AS newest, count(*) OVER g AS n,
			row_number() OVER (g ORDER BY created_at IS NULL, created_at DESC, id DESC) AS r
		FROM submissions WHERE gone_at IS NULL AND status = 0 AND ` + group + ` IS NOT NULL WINDOW g AS (PARTITION BY ` + group + `)) d
		WHERE r = 1 ORDER BY k`
}

// watchSQLs are the statements of each dialect.
var watchSQLs = map[mirror.Dialect]*watchSQL{
	mirror.SQLite: {
		Watched: "SELECT count(*) FROM watch_lists WHERE resource = ?",
		StartWatch: `INSERT INTO watch_lists (resource, watched_since, clock_at) VALUES (?, ?, ?)
			ON CONFLICT (resource) DO NOTHING`,
		Clock:    "SELECT clock_at FROM watch_lists WHERE resource = ?",
		SetClock: "UPDATE watch_lists SET clock_at = ? WHERE resource = ?",
		BaseURL:  "SELECT coalesce(max(value), '') FROM store WHERE key = 'base_url'",
		InsertEvent: `INSERT INTO outbox (id, type, resource, row_id, occurred_at, detected_at, data)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		NextEvent: "SELECT " + eventCols + " FROM outbox WHERE state = 'pending' ORDER BY seq LIMIT 1",
		Events: func(state, last bool) string {
			q := "SELECT " + eventCols + " FROM outbox"
			if state {
				q += " WHERE state = ?"
			}
			q += " ORDER BY seq DESC"
			if last {
				q += " LIMIT ?"
			}
			return q
		},
		Delivered: `UPDATE outbox SET state = 'delivered', delivered_at = ?, next_attempt_at = NULL WHERE seq = ?`,
		Failed: `UPDATE outbox SET attempts = attempts + 1, first_failed_at = coalesce(first_failed_at, ?),
		next_attempt_at = ?, last_error = ? WHERE seq = ?`,
		Parked: `UPDATE outbox SET state = 'parked', attempts = attempts + 1,
		first_failed_at = coalesce(first_failed_at, ?), next_attempt_at = NULL, last_error = ? WHERE seq = ?`,
		ResendID:     resendSet + " WHERE id = ?",
		ResendParked: resendSet + " WHERE state = 'parked'",
		Prune:        "DELETE FROM outbox WHERE state = 'delivered' AND delivered_at < ?",
		Counts:       `SELECT coalesce(sum(state = 'pending'), 0), coalesce(sum(state = 'parked'), 0) FROM outbox`,
		Replay: func(list string) string {
			where, ok := map[string]string{
				"submissions": "(julianday(created_at) >= julianday(?1) OR (status = 1 AND julianday(updated_at) >= julianday(?1)))",
				"rules":       "julianday(created_at) >= julianday(?1)",
				"offers":      "julianday(updated_at) >= julianday(?1)",
			}[list]
			if !ok {
				return ""
			}
			return "SELECT id, list_json FROM " + list + " WHERE gone_at IS NULL AND " + where + " ORDER BY id"
		},
		LiveRules:     "SELECT id, list_json FROM rules WHERE gone_at IS NULL ORDER BY id",
		PendingDemand: pendingDemandSQL,
		AlertStates:   "SELECT key, above, crossings FROM watch_alerts WHERE alert = ?",
		SaveAlert: `INSERT INTO watch_alerts (alert, key, above, crossings) VALUES (?, ?, ?, ?)
		ON CONFLICT (alert, key) DO UPDATE SET above = excluded.above, crossings = excluded.crossings`,
		EngagementWatched: `SELECT count(*) FROM watch_lists w JOIN submissions s ON s.id = ?1
		WHERE w.resource = 'submissions' AND (?2 OR s.first_seen_at > w.watched_since)`,
		DetailJSON: "SELECT detail_json FROM submissions WHERE id = ?",
	},
	mirror.Postgres: {
		Watched: "SELECT count(*) FROM watch_lists WHERE resource = $1",
		StartWatch: `INSERT INTO watch_lists (resource, watched_since, clock_at) VALUES ($1, $2, $3)
			ON CONFLICT (store, resource) DO NOTHING`,
		Clock:    "SELECT clock_at FROM watch_lists WHERE resource = $1",
		SetClock: "UPDATE watch_lists SET clock_at = $1 WHERE resource = $2",
		BaseURL:  "SELECT coalesce(max(value), '') FROM store WHERE key = 'base_url'",
		InsertEvent: `INSERT INTO outbox (id, type, resource, row_id, occurred_at, detected_at, data)
			VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (store, id) DO NOTHING`,
		NextEvent: "SELECT " + eventCols + " FROM outbox WHERE state = 'pending' ORDER BY seq LIMIT 1",
		Events: func(state, last bool) string {
			q, n := "SELECT "+eventCols+" FROM outbox", 0
			if state {
				n++
				q += " WHERE state = $" + strconv.Itoa(n)
			}
			q += " ORDER BY seq DESC"
			if last {
				n++
				q += " LIMIT $" + strconv.Itoa(n)
			}
			return q
		},
		Delivered: `UPDATE outbox SET state = 'delivered', delivered_at = $1, next_attempt_at = NULL WHERE seq = $2`,
		Failed: `UPDATE outbox SET attempts = attempts + 1, first_failed_at = coalesce(first_failed_at, $1),
		next_attempt_at = $2, last_error = $3 WHERE seq = $4`,
		Parked: `UPDATE outbox SET state = 'parked', attempts = attempts + 1,
		first_failed_at = coalesce(first_failed_at, $1), next_attempt_at = NULL, last_error = $2 WHERE seq = $3`,
		ResendID:     resendSet + " WHERE id = $1",
		ResendParked: resendSet + " WHERE state = 'parked'",
		Prune:        "DELETE FROM outbox WHERE state = 'delivered' AND delivered_at < $1",
		Counts:       `SELECT count(*) FILTER (WHERE state = 'pending'), count(*) FILTER (WHERE state = 'parked') FROM outbox`,
		Replay: func(list string) string {
			where, ok := map[string]string{
				"submissions": "(storectl.api_time(created_at) >= $1::timestamptz OR (status = 1 AND storectl.api_time(updated_at) >= $1::timestamptz))",
				"rules":       "storectl.api_time(created_at) >= $1::timestamptz",
				"offers":      "storectl.api_time(updated_at) >= $1::timestamptz",
			}[list]
			if !ok {
				return ""
			}
			return "SELECT id, list_json FROM " + list + " WHERE gone_at IS NULL AND " + where + " ORDER BY id"
		},
		LiveRules:     "SELECT id, list_json FROM rules WHERE gone_at IS NULL ORDER BY id",
		PendingDemand: pendingDemandSQL,
		AlertStates:   "SELECT key, above, crossings FROM watch_alerts WHERE alert = $1",
		SaveAlert: `INSERT INTO watch_alerts (alert, key, above, crossings) VALUES ($1, $2, $3, $4)
		ON CONFLICT (store, alert, key) DO UPDATE SET above = excluded.above, crossings = excluded.crossings`,
		EngagementWatched: `SELECT count(*) FROM watch_lists w JOIN submissions s ON s.id = $1
		WHERE w.resource = 'submissions' AND ($2::boolean OR s.first_seen_at > w.watched_since)`,
		DetailJSON: "SELECT detail_json FROM submissions WHERE id = $1",
	},
}
