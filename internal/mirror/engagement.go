package mirror

import (
	"context"
	"database/sql"
	"errors"
)

// Engagement is what a submission's detail says of its restock e-mail.
// Opened and Clicked are "" for the API's 0, else the time as sent (in
// the shop's zone); LastSent is "" when null.
type Engagement struct {
	Status      int64  `json:"status"`
	LastSent    string `json:"last_sent"`
	Opened      string `json:"opened"`
	Clicked     string `json:"clicked"`
	Unsubscribe int64  `json:"unsubscribe"`
}

// DetailChange is a stored submission detail that changed the row's
// engagement. HadDetail is false for a row's first detail, whose Before
// is then what the list row implied (its status, nothing else).
type DetailChange struct {
	ID            int64
	HadDetail     bool
	Before, After Engagement
}

// FirstOpen, FirstClick and Unsubscribed say what the change brought.
func (c DetailChange) FirstOpen() bool  { return c.Before.Opened == "" && c.After.Opened != "" }
func (c DetailChange) FirstClick() bool { return c.Before.Clicked == "" && c.After.Clicked != "" }
func (c DetailChange) Unsubscribed() bool {
	return c.Before.Unsubscribe == 0 && c.After.Unsubscribe == 1
}

// DetailChangeHook hears every stored submission detail that changed the
// row's engagement, inside the transaction that stores it: an outbox row
// written through tx commits with the detail or not at all (a watch's
// submission.opened and submission.clicked events). An error rolls the
// detail back.
type DetailChangeHook func(ctx context.Context, tx Tx, ch DetailChange) error

// engagementRow is a row's engagement before a detail is stored.
type engagementRow struct {
	Engagement
	hadDetail bool
}

func (db *DB) readEngagement(ctx context.Context, tx Tx, id int64) (*engagementRow, error) {
	var e engagementRow
	// A hostile server's text in a numeric column (SQLite keeps it): not
	// a status, read as none.
	var status, unsub any
	var lastSent, opened, clicked sql.NullString
	err := tx.QueryRowContext(ctx, db.q.Engagement, id).Scan(&status, &lastSent, &opened, &clicked, &unsub, &e.hadDetail)
	if errors.Is(err, sql.ErrNoRows) {
		return &e, nil
	}
	if err != nil {
		return nil, err
	}
	e.Engagement = Engagement{Status: integerOrZero(status), LastSent: lastSent.String, Opened: zeroless(opened),
		Clicked: zeroless(clicked), Unsubscribe: integerOrZero(unsub)}
	return &e, nil
}

// integerOrZero is an integer column's value, 0 when it holds none.
func integerOrZero(v any) int64 {
	n, _ := v.(int64)
	return n
}

// zeroless is opened or clicked as text: "" for the API's 0 or nothing.
func zeroless(v sql.NullString) string {
	if !v.Valid || v.String == "0" {
		return ""
	}
	return v.String
}

// engagementChanged compares the row as stored now with before, and hands
// a change to the hook.
func (db *DB) engagementChanged(ctx context.Context, tx Tx, id int64, before *engagementRow) (*DetailChange, error) {
	after, err := db.readEngagement(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	if before.hadDetail && after.Engagement == before.Engagement {
		return nil, nil
	}
	ch := &DetailChange{ID: id, HadDetail: before.hadDetail, After: after.Engagement}
	if before.hadDetail {
		ch.Before = before.Engagement
	} else {
		ch.Before = Engagement{Status: before.Status}
	}
	if ch.After == ch.Before {
		return nil, nil
	}
	if err := db.detailHeard(ctx, tx, *ch); err != nil {
		return nil, err
	}
	if db.OnDetailChange != nil {
		if err := db.OnDetailChange(ctx, tx, *ch); err != nil {
			return nil, err
		}
	}
	return ch, nil
}

// noteChange counts what a stored detail brought.
func (d *DetailResult) noteChange(ch *DetailChange) {
	if ch == nil {
		return
	}
	if ch.FirstOpen() {
		d.Opened++
	}
	if ch.FirstClick() {
		d.Clicked++
	}
	if ch.Unsubscribed() {
		d.Unsubscribed++
	}
}
