package watch

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/watch/schema"
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

// Watch is a feature of the mirror (mirror.Feature): it owns its data
// (package schema: the watched lists, the outbox, the alerts' states) and its
// statements (statements.go), and hears, in the transactions that store
// them, the rows every pass of a watched list stores: their events go into
// the outbox with them, or not at all.
func init() {
	mirror.Register(&mirror.Feature{
		Name:   schema.Name,
		Schema: schema.Migrations,
		Copied: schema.Copied,
		// Its undelivered events exist nowhere else: a damaged mirror's
		// messages and mirror reset weigh them before anything is deleted.
		Unrecoverable: schema.Unrecoverable,
		Pass:          watchPass,
		Detail: func(ctx context.Context, db *mirror.DB, tx mirror.Tx, ch mirror.DetailChange) error {
			return recordEngagement(ctx, db, tx, ch)
		},
	})
}

// sqlOf is the watch's statements in the mirror's dialect.
func sqlOf(db *mirror.DB) *watchSQL { return watchSQLs[db.Dialect()] }

// watchPass hears a pass of a watched list: whether it is, and the store
// every event id names, are read once, as the pass begins. A list's
// watch starts only where its writer is (the one that holds the mirror's
// lock or lease), so it cannot start during another's pass.
func watchPass(ctx context.Context, db *mirror.DB, list string) (mirror.PassHooks, error) {
	if ok, err := watched(ctx, db, db.Pool(), list); err != nil || !ok {
		return nil, err
	}
	var base string
	if err := db.Pool().QueryRowContext(ctx, sqlOf(db).BaseURL).Scan(&base); err != nil {
		return nil, err
	}
	return &watchHooks{db: db, store: mirror.StoreKey(base)}, nil
}

// watchHooks record a watched list's events.
type watchHooks struct {
	db    *mirror.DB
	store string
}

// Page records the events of a page's changes. Pages list the newest rows
// first: the oldest row's events go first, and each row's in the order
// they happened.
func (h *watchHooks) Page(ctx context.Context, tx mirror.Tx, changes []mirror.RowChange) error {
	d := &deriver{store: h.store, now: h.db.Now().UTC()}
	var events []Event
	for _, c := range slices.Backward(changes) {
		events = append(events, d.derive(c)...)
	}
	return insertEvents(ctx, h.db, tx, events)
}

// Gone records the events of the rows a full pass marks gone.
func (h *watchHooks) Gone(ctx context.Context, tx mirror.Tx, changes []mirror.RowChange) error {
	return h.Page(ctx, tx, changes)
}

// rowQuerier reads one row (a pool, a transaction).
type rowQuerier interface {
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

// watched reports whether list is watched.
func watched(ctx context.Context, db *mirror.DB, q rowQuerier, list string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, sqlOf(db).Watched, list).Scan(&n)
	return n > 0, err
}

// deriver turns changes into events for one store at one instant.
type deriver struct {
	store string // the store's key, part of every event id
	now   time.Time
}

func newDeriver(ctx context.Context, db *mirror.DB, tx mirror.Tx) (*deriver, error) {
	var base string
	err := tx.QueryRowContext(ctx, sqlOf(db).BaseURL).Scan(&base)
	return &deriver{store: mirror.StoreKey(base), now: db.Now().UTC()}, err
}

// derive is the events one change makes (docs/watch.md says which).
func (d *deriver) derive(c mirror.RowChange) []Event {
	switch c.List {
	case "submissions":
		return d.submission(c)
	case "rules":
		return d.rule(c)
	case "offers":
		if c.Kind != mirror.ChangeGone {
			return []Event{d.event(OfferChanged, c.List, c.ID, contentVersion(c.After), d.when(c.After, "updated_at"), c.After)}
		}
	}
	return nil
}

func (d *deriver) submission(c mirror.RowChange) []Event {
	switch c.Kind {
	case mirror.ChangeNew:
		out := []Event{d.event(SubmissionCreated, c.List, c.ID, "", d.when(c.After, "created_at"), c.After)}
		if statusOf(c.After) == 1 {
			out = append(out, d.sent(c))
		}
		return out
	case mirror.ChangeUpdated:
		if statusOf(c.After) == 1 && statusOf(c.Before) != 1 {
			return []Event{d.sent(c)}
		}
	case mirror.ChangeGone:
		return []Event{d.event(SubmissionGone, c.List, c.ID, rowVersion(c.Before), d.now, c.Before)}
	}
	return nil
}

// sent is submission.sent: its version is the row's updated_at, so a row
// sent again later (pending in between) is a new event.
func (d *deriver) sent(c mirror.RowChange) Event {
	return d.event(SubmissionSent, c.List, c.ID, rowVersion(c.After), d.when(c.After, "updated_at"), c.After)
}

func (d *deriver) rule(c mirror.RowChange) []Event {
	switch c.Kind {
	case mirror.ChangeNew:
		out := []Event{d.event(RuleCreated, c.List, c.ID, "", d.when(c.After, "created_at"), c.After)}
		// A rule that is live when first seen went live: the clock's
		// check (ClockEvents) would give the same event, with the same id.
		if start, ok := timeField(c.After, "start_date"); ok && ruleEnabled(c.After) && !start.After(d.now) {
			if end, ok := timeField(c.After, "end_date"); !ok || end.After(d.now) {
				out = append(out, d.ruleStarted(c.ID, c.After, start))
			}
		}
		return out
	case mirror.ChangeGone:
		return []Event{d.event(RuleDeleted, c.List, c.ID, "", d.now, c.Before)}
	}
	return nil
}

func (d *deriver) ruleStarted(id string, row json.RawMessage, at time.Time) Event {
	return d.event(RuleStarted, "rules", id, stringField(row, "start_date"), at, row)
}

func (d *deriver) ruleEnded(id string, row json.RawMessage, at time.Time) Event {
	return d.event(RuleEnded, "rules", id, stringField(row, "end_date"), at, row)
}

// event builds an event whose id is derived from the store, the type, the
// row and the version of the change: the same change derived again (a
// transaction retried, a replay) has the same id.
func (d *deriver) event(typ, list, id, version string, occurred time.Time, data json.RawMessage) Event {
	return Event{ID: EventID(d.store, typ, id, version), Type: typ, Resource: list, RowID: id,
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
	t, err := mirror.ParseAPITime(s)
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
