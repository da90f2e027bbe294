package mirror

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Event types: a contract with users' scripts and receivers (docs/watch.md).
const (
	SubmissionCreated = "submission.created"
	SubmissionSent    = "submission.sent"
	SubmissionOpened  = "submission.opened"
	SubmissionClicked = "submission.clicked"
	SubmissionGone    = "submission.gone"
	RuleCreated       = "rule.created"
	RuleDeleted       = "rule.deleted"
	RuleStarted       = "rule.started"
	RuleEnded         = "rule.ended"
	OfferChanged      = "offer.changed"
	DemandThreshold   = "demand.threshold"
)

// EventTypes lists every type, in the order docs/watch.md gives them.
var EventTypes = []string{SubmissionCreated, SubmissionSent, SubmissionOpened, SubmissionClicked, SubmissionGone,
	RuleCreated, RuleDeleted, RuleStarted, RuleEnded, OfferChanged, DemandThreshold}

// changeKind is how a sync changed a row.
type changeKind int

const (
	changeNew     changeKind = iota // first stored
	changeUpdated                   // its list row changed (or it came back)
	changeGone                      // a full pass no longer found it
)

func changeOf(s rowState) changeKind {
	if s == rowNew {
		return changeNew
	}
	return changeUpdated
}

// rowChange is a row a pass stored differently from what the mirror held:
// the list row before (nil when new) and after (for a gone row, the last
// one held).
type rowChange struct {
	res           *resource
	id            string
	kind          changeKind
	before, after json.RawMessage
}

// execQuerier is a transaction, or its prepared statements (txStmts).
type execQuerier interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

// recordChanges writes the events of a page's changes into the outbox, in
// the page's transaction, when the list is watched.
func (db *DB) recordChanges(ctx context.Context, tx execQuerier, changes []rowChange) error {
	if len(changes) == 0 {
		return nil
	}
	if ok, err := watched(ctx, tx, changes[0].res.name); err != nil || !ok {
		return err
	}
	d, err := db.deriver(ctx, tx)
	if err != nil {
		return err
	}
	// Pages list the newest rows first: the oldest row's events go first,
	// and each row's in the order they happened.
	var events []Event
	for _, c := range slices.Backward(changes) {
		events = append(events, d.derive(c)...)
	}
	return insertEvents(ctx, tx, events)
}

// recordGone records the events of the rows a full pass is about to mark
// gone (rows it did not meet), in the transaction that marks them.
func (p *pass) recordGone(ctx context.Context, tx *sql.Tx) error {
	if ok, err := watched(ctx, tx, p.res.name); err != nil || !ok {
		return err
	}
	rows, err := tx.QueryContext(ctx, fmt.Sprintf("SELECT id, list_json FROM %s WHERE %s ORDER BY id DESC",
		p.res.name, unmetSince), p.id)
	if err != nil {
		return err
	}
	var changes []rowChange
	for rows.Next() {
		var id int64
		var list string
		if err := rows.Scan(&id, &list); err != nil {
			rows.Close()
			return err
		}
		changes = append(changes, rowChange{res: p.res, id: strconv.FormatInt(id, 10), kind: changeGone,
			before: json.RawMessage(list), after: json.RawMessage(list)})
	}
	if err := rows.Close(); err != nil {
		return err
	}
	return p.db.recordChanges(ctx, tx, changes)
}

// watchedSQL counts the watches of a list (asked once a page: storePage
// prepares it).
const watchedSQL = "SELECT count(*) FROM watch_lists WHERE resource = ?"

// watched reports whether the list res is watched.
func watched(ctx context.Context, tx execQuerier, res string) (bool, error) {
	var n int
	err := queryRow(ctx, tx, watchedSQL, res).Scan(&n)
	return n > 0, err
}

// deriver turns changes into events for one store at one instant.
type deriver struct {
	store string // the store's key, part of every event id
	now   time.Time
}

func (db *DB) deriver(ctx context.Context, tx execQuerier) (*deriver, error) {
	var base string
	err := queryRow(ctx, tx, "SELECT coalesce(max(value), '') FROM store WHERE key = 'base_url'").Scan(&base)
	return &deriver{store: storeKey(base), now: db.Now().UTC()}, err
}

// derive is the events one change makes (docs/watch.md says which).
func (d *deriver) derive(c rowChange) []Event {
	switch c.res {
	case submissions:
		return d.submission(c)
	case rules:
		return d.rule(c)
	case offers:
		if c.kind != changeGone {
			return []Event{d.event(OfferChanged, c.res, c.id, contentVersion(c.after), d.when(c.after, "updated_at"), c.after)}
		}
	}
	return nil
}

func (d *deriver) submission(c rowChange) []Event {
	switch c.kind {
	case changeNew:
		out := []Event{d.event(SubmissionCreated, c.res, c.id, "", d.when(c.after, "created_at"), c.after)}
		if statusOf(c.after) == 1 {
			out = append(out, d.sent(c))
		}
		return out
	case changeUpdated:
		if statusOf(c.after) == 1 && statusOf(c.before) != 1 {
			return []Event{d.sent(c)}
		}
	case changeGone:
		return []Event{d.event(SubmissionGone, c.res, c.id, rowVersion(c.before), d.now, c.before)}
	}
	return nil
}

// sent is submission.sent: its version is the row's updated_at, so a row
// sent again later (pending in between) is a new event.
func (d *deriver) sent(c rowChange) Event {
	return d.event(SubmissionSent, c.res, c.id, rowVersion(c.after), d.when(c.after, "updated_at"), c.after)
}

func (d *deriver) rule(c rowChange) []Event {
	switch c.kind {
	case changeNew:
		out := []Event{d.event(RuleCreated, c.res, c.id, "", d.when(c.after, "created_at"), c.after)}
		// A rule that is live when first seen went live: the clock's
		// check (ClockEvents) would give the same event, with the same id.
		if start, ok := timeField(c.after, "start_date"); ok && ruleEnabled(c.after) && !start.After(d.now) {
			if end, ok := timeField(c.after, "end_date"); !ok || end.After(d.now) {
				out = append(out, d.ruleStarted(c.id, c.after, start))
			}
		}
		return out
	case changeGone:
		return []Event{d.event(RuleDeleted, c.res, c.id, "", d.now, c.before)}
	}
	return nil
}

func (d *deriver) ruleStarted(id string, row json.RawMessage, at time.Time) Event {
	return d.event(RuleStarted, rules, id, stringField(row, "start_date"), at, row)
}

func (d *deriver) ruleEnded(id string, row json.RawMessage, at time.Time) Event {
	return d.event(RuleEnded, rules, id, stringField(row, "end_date"), at, row)
}

// event builds an event whose id is derived from the store, the type, the
// row and the version of the change: the same change derived again (a
// transaction retried, a replay) has the same id.
func (d *deriver) event(typ string, res *resource, id, version string, occurred time.Time, data json.RawMessage) Event {
	return Event{ID: EventID(d.store, typ, id, version), Type: typ, Resource: res.name, RowID: id,
		OccurredAt: occurred.UTC(), DetectedAt: d.now, Data: data}
}

// when is the row's time field, or now when it has none that parses.
func (d *deriver) when(row json.RawMessage, key string) time.Time {
	if t, ok := timeField(row, key); ok {
		return t
	}
	return d.now
}

// EventID is an event's stable id: "evt_" and 32 hex digits of a hash of
// the store, the type, the row and the change's version.
func EventID(store, typ, rowID, version string) string {
	h := sha256.New()
	for _, s := range []string{store, typ, rowID, version} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return "evt_" + hex.EncodeToString(h.Sum(nil))[:32]
}

// rowVersion is a row's updated_at as sent, or its content when it has
// none.
func rowVersion(row json.RawMessage) string {
	if v := stringField(row, "updated_at"); v != "" {
		return v
	}
	return contentVersion(row)
}

// contentVersion is a hash of the row's compact JSON.
func contentVersion(row json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, row) != nil {
		b.Reset()
		b.Write(row)
	}
	sum := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(sum[:16])
}

// fields reads a row's top-level members; a row that is not an object has
// none.
func fields(row json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(row, &m)
	return m
}

// stringField is a member as text: a string's value, else its JSON.
func stringField(row json.RawMessage, key string) string {
	v, ok := fields(row)[key]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	if t := strings.TrimSpace(string(v)); t != "null" {
		return t
	}
	return ""
}

// timeField reads a member as one of the API's datetimes.
func timeField(row json.RawMessage, key string) (time.Time, bool) {
	s := stringField(row, key)
	if s == "" {
		return time.Time{}, false
	}
	t, err := parseAPITime(s)
	return t.UTC(), err == nil
}

// statusOf reads a status sent as 0/1, a boolean or a digit string; -1
// when there is none.
func statusOf(row json.RawMessage) int {
	switch v := stringField(row, "status"); v {
	case "1", "true":
		return 1
	case "0", "false":
		return 0
	}
	return -1
}

// ruleEnabled: a rule whose status is 0 (or false) is off and never goes
// live; one without a status is taken as on.
func ruleEnabled(row json.RawMessage) bool { return statusOf(row) != 0 }
