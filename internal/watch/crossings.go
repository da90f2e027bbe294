package watch

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"strconv"

	"github.com/storectl/storectl/internal/mirror"
)

// Alert is a demand threshold (`watch --alert 'pending>=20 by product'`):
// it fires once when a variant's (or product's) pending submissions reach
// Min, and again only after they fell below it.
type Alert struct {
	Name      string // as the user wrote it, normalised: the alert's identity
	Min       int
	ByProduct bool
}

// demand is one variant's or product's pending count, with its titles.
type demand struct {
	key                        string
	productID, variantID       sql.Null[int64]
	productTitle, variantTitle sql.Null[string]
	pending                    int
}

// alertState is what an alert last saw of a key.
type alertState struct {
	above     bool
	crossings int
}

// Alerts evaluates the alerts against the mirror's pending submissions and
// records a demand.threshold event for each upward crossing. An alert's
// first evaluation is its baseline: what already stands above it is not a
// crossing. Run it after a sync of the submissions. It returns how many
// events it recorded.
func Alerts(ctx context.Context, db *mirror.DB, alerts []Alert) (_ int, err error) {
	defer func() { err = db.Explain(err) }()
	if len(alerts) == 0 {
		return 0, nil
	}
	sqlTx, err := db.Pool().BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer sqlTx.Rollback()
	tx := mirror.SQLTx{Tx: sqlTx}
	d, err := newDeriver(ctx, db, tx)
	if err != nil {
		return 0, err
	}
	var events []Event
	for _, a := range alerts {
		fired, err := evaluate(ctx, db, d, tx, a)
		if err != nil {
			return 0, err
		}
		events = append(events, fired...)
	}
	if err := insertEvents(ctx, db, tx, events); err != nil {
		return 0, err
	}
	return len(events), sqlTx.Commit()
}

// evaluate compares one alert's counts with what it saw last, keeps what
// it sees now, and returns the crossings' events.
func evaluate(ctx context.Context, db *mirror.DB, d *deriver, tx mirror.Tx, a Alert) ([]Event, error) {
	counts, err := pendingDemand(ctx, db, tx, a.ByProduct)
	if err != nil {
		return nil, err
	}
	states, baseline, err := alertStates(ctx, db, tx, a.Name)
	if err != nil {
		return nil, err
	}
	var out []Event
	for _, c := range counts {
		st, known := states[c.key]
		delete(states, c.key)
		above := c.pending >= a.Min
		if known && above == st.above {
			continue // only what moved is written
		}
		if above && !st.above && !baseline {
			st.crossings++
			out = append(out, d.crossing(a, c, st.crossings))
		}
		if err := saveAlertState(ctx, db, tx, a.Name, c.key, above, st.crossings); err != nil {
			return nil, err
		}
	}
	for key, st := range states { // no pending left: below, re-armed
		if st.above {
			if err := saveAlertState(ctx, db, tx, a.Name, key, false, st.crossings); err != nil {
				return nil, err
			}
		}
	}
	if !baseline {
		return out, nil
	}
	return out, saveAlertState(ctx, db, tx, a.Name, "", false, 0)
}

// crossing is the event of an alert's nth crossing for a key.
func (d *deriver) crossing(a Alert, c demand, n int) Event {
	by := "variant"
	data := map[string]any{"alert": a.Name, "threshold": a.Min, "pending": c.pending,
		"product_id": nullable(c.productID), "product_title": nullable(c.productTitle)}
	if a.ByProduct {
		by = "product"
	} else {
		data["variant_id"], data["variant_title"] = nullable(c.variantID), nullable(c.variantTitle)
	}
	data["by"] = by
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // "pending>=20" as written
	_ = enc.Encode(data)
	raw := bytes.TrimSpace(b.Bytes())
	return Event{ID: EventID(d.store, DemandThreshold, a.Name+"|"+c.key, strconv.Itoa(n)), Type: DemandThreshold,
		Resource: "alerts", RowID: c.key, OccurredAt: d.now, DetectedAt: d.now, Data: raw}
}

func nullable[T any](v sql.Null[T]) any {
	if !v.Valid {
		return nil
	}
	return v.V
}

// pendingDemand counts the live pending submissions per variant (or
// product), with the titles of the newest.
func pendingDemand(ctx context.Context, db *mirror.DB, tx mirror.Tx, byProduct bool) ([]demand, error) {
	rows, err := tx.QueryContext(ctx, sqlOf(db).PendingDemand(byProduct))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []demand
	for rows.Next() {
		var c demand
		var key int64
		var newest sql.NullString
		if err := rows.Scan(&key, &c.productID, &c.variantID, &c.productTitle, &c.variantTitle, &newest, &c.pending); err != nil {
			return nil, err
		}
		c.key = strconv.FormatInt(key, 10)
		out = append(out, c)
	}
	return out, rows.Err()
}

// alertStates is what the alert saw last, per key; baseline says it never
// ran.
func alertStates(ctx context.Context, db *mirror.DB, tx mirror.Tx, alert string) (map[string]alertState, bool, error) {
	rows, err := tx.QueryContext(ctx, sqlOf(db).AlertStates, alert)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	states := map[string]alertState{}
	baseline := true
	for rows.Next() {
		var key string
		var st alertState
		if err := rows.Scan(&key, &st.above, &st.crossings); err != nil {
			return nil, false, err
		}
		if key == "" {
			baseline = false
			continue
		}
		states[key] = st
	}
	return states, baseline, rows.Err()
}

func saveAlertState(ctx context.Context, db *mirror.DB, tx mirror.Tx, alert, key string, above bool, crossings int) error {
	_, err := tx.ExecContext(ctx, sqlOf(db).SaveAlert, alert, key, above, crossings)
	return err
}
