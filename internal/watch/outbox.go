package watch

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/mirror"
)

// The outbox of storectl watch: the events derived from what syncs stored,
// written in the transactions that stored it, read in order by whoever
// delivers them, each marked once delivered. A process killed at any
// instant loses none: an event is either committed with its page or its
// page is not stored and will be read again.

// Event is one event of the outbox, with where its delivery stands.
type Event struct {
	Seq        int64
	ID         string
	Type       string
	Resource   string // the table it comes from; "alerts" for demand.threshold
	RowID      string // the row (or for an alert, its variant or product)
	OccurredAt time.Time
	DetectedAt time.Time
	Data       json.RawMessage // the row as the API sent it (an alert's own object)

	State         string // EventPending, EventDelivered or EventParked
	Attempts      int
	FirstFailedAt time.Time // zero until an attempt failed
	NextAttemptAt time.Time // zero: now
	LastError     string
	DeliveredAt   time.Time
}

// Delivery states of an event.
const (
	EventPending   = "pending"
	EventDelivered = "delivered"
	EventParked    = "parked"
)

// insertEvents records events in the order given; one whose id is already
// recorded (the same change derived again) is left as it is.
func insertEvents(ctx context.Context, db *mirror.DB, tx mirror.Tx, events []Event) error {
	for _, e := range events {
		if _, err := tx.ExecContext(ctx, sqlOf(db).InsertEvent,
			e.ID, e.Type, e.Resource, e.RowID, stamp(e.OccurredAt), stamp(e.DetectedAt), string(e.Data)); err != nil {
			return err
		}
	}
	return nil
}

func scanEvent(scan func(...any) error) (Event, error) {
	var e Event
	var occurred, detected, data, firstFailed, next, delivered string
	err := scan(&e.Seq, &e.ID, &e.Type, &e.Resource, &e.RowID, &occurred, &detected, &data, &e.State, &e.Attempts,
		&firstFailed, &next, &e.LastError, &delivered)
	e.OccurredAt, e.DetectedAt, e.Data = mirror.ParseStamp(occurred), mirror.ParseStamp(detected), json.RawMessage(data)
	e.FirstFailedAt, e.NextAttemptAt, e.DeliveredAt = mirror.ParseStamp(firstFailed), mirror.ParseStamp(next), mirror.ParseStamp(delivered)
	return e, err
}

// NextEvent is the first pending event, in the order they were recorded;
// nil when none is.
func NextEvent(ctx context.Context, db *mirror.DB) (_ *Event, err error) {
	defer func() { err = db.Explain(err) }()
	row := db.Pool().QueryRowContext(ctx, sqlOf(db).NextEvent)
	e, err := scanEvent(row.Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return &e, err
}

// MarkDelivered marks an event delivered.
func MarkDelivered(ctx context.Context, db *mirror.DB, seq int64) (err error) {
	defer func() { err = db.Explain(err) }()
	_, err = db.Pool().ExecContext(ctx, sqlOf(db).Delivered, stamp(db.Now()), seq)
	return err
}

// MarkFailed records a failed attempt and when the next one is due.
func MarkFailed(ctx context.Context, db *mirror.DB, seq int64, next time.Time, cause string) (err error) {
	defer func() { err = db.Explain(err) }()
	_, err = db.Pool().ExecContext(ctx, sqlOf(db).Failed, stamp(db.Now()), stamp(next), cause, seq)
	return err
}

// MarkParked records a last failed attempt and sets the event aside:
// later events are delivered; `watch events resend` brings it back.
func MarkParked(ctx context.Context, db *mirror.DB, seq int64, cause string) (err error) {
	defer func() { err = db.Explain(err) }()
	_, err = db.Pool().ExecContext(ctx, sqlOf(db).Parked, stamp(db.Now()), cause, seq)
	return err
}

// EventFilter selects events of the outbox: those in State ("" any),
// the Last n of them (0: all), in the order they were recorded.
type EventFilter struct {
	State string
	Last  int
}

// Events lists the outbox's events.
func Events(ctx context.Context, db *mirror.DB, f EventFilter) (_ []Event, err error) {
	defer func() { err = db.Explain(err) }()
	var args []any
	if f.State != "" {
		args = append(args, f.State)
	}
	if f.Last > 0 {
		args = append(args, f.Last)
	}
	rows, err := db.Pool().QueryContext(ctx, sqlOf(db).Events(f.State != "", f.Last > 0), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		e, err := scanEvent(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, rows.Err()
}

// ResendEvents makes the events named pending again, whatever their state,
// with their attempts reset: delivered again in their place in the order.
// It returns the ids the outbox does not hold.
func ResendEvents(ctx context.Context, db *mirror.DB, ids []string) (missing []string, err error) {
	defer func() { err = db.Explain(err) }()
	tx, err := db.Pool().BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	for _, id := range ids {
		r, err := tx.ExecContext(ctx, sqlOf(db).ResendID, strings.TrimSpace(id))
		if err != nil {
			return nil, err
		}
		if n, _ := r.RowsAffected(); n == 0 {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		return missing, nil
	}
	return nil, tx.Commit()
}

// ResendParked makes every parked event pending again; it returns how many.
func ResendParked(ctx context.Context, db *mirror.DB) (_ int, err error) {
	defer func() { err = db.Explain(err) }()
	r, err := db.Pool().ExecContext(ctx, sqlOf(db).ResendParked)
	if err != nil {
		return 0, err
	}
	n, err := r.RowsAffected()
	return int(n), err
}

// PruneEvents deletes the events delivered before before: the outbox keeps
// what is pending or parked, and the recent past (a re-derived change is
// recognised by its id while its event is kept).
func PruneEvents(ctx context.Context, db *mirror.DB, before time.Time) (err error) {
	defer func() { err = db.Explain(err) }()
	_, err = db.Pool().ExecContext(ctx, sqlOf(db).Prune, stamp(before))
	return err
}

// OutboxCounts are how many events are pending and parked.
func OutboxCounts(ctx context.Context, db *mirror.DB) (pending, parked int, err error) {
	defer func() { err = db.Explain(err) }()
	err = db.Pool().QueryRowContext(ctx, sqlOf(db).Counts).Scan(&pending, &parked)
	return pending, parked, err
}
