package mirror

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
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
func (db *DB) Alerts(ctx context.Context, alerts []Alert) (_ int, err error) {
	defer db.explain(&err)
	if len(alerts) == 0 {
		return 0, nil
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	d, err := db.deriver(ctx, tx)
	if err != nil {
		return 0, err
	}
	var events []Event
	for _, a := range alerts {
		fired, err := d.evaluate(ctx, tx, a)
		if err != nil {
			return 0, err
		}
		events = append(events, fired...)
	}
	if err := insertEvents(ctx, tx, events); err != nil {
		return 0, err
	}
	return len(events), tx.Commit()
}

// evaluate compares one alert's counts with what it saw last, keeps what
// it sees now, and returns the crossings' events.
func (d *deriver) evaluate(ctx context.Context, tx *sql.Tx, a Alert) ([]Event, error) {
	counts, err := pendingDemand(ctx, tx, a.ByProduct)
	if err != nil {
		return nil, err
	}
	states, baseline, err := alertStates(ctx, tx, a.Name)
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
		if err := saveAlertState(ctx, tx, a.Name, c.key, above, st.crossings); err != nil {
			return nil, err
		}
	}
	for key, st := range states { // no pending left: below, re-armed
		if st.above {
			if err := saveAlertState(ctx, tx, a.Name, key, false, st.crossings); err != nil {
				return nil, err
			}
		}
	}
	if !baseline {
		return out, nil
	}
	return out, saveAlertState(ctx, tx, a.Name, "", false, 0)
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
func pendingDemand(ctx context.Context, tx *sql.Tx, byProduct bool) ([]demand, error) {
	group := "variant_id"
	if byProduct {
		group = "product_id"
	}
	// With one max(), SQLite takes the other bare columns from the row
	// holding it: the titles are the newest submission's.
	rows, err := tx.QueryContext(ctx, fmt.Sprintf(`SELECT %[1]s, product_id, variant_id, product_title, variant_title, max(created_at), count(*)
		FROM submissions WHERE gone_at IS NULL AND status = 0 AND %[1]s IS NOT NULL GROUP BY %[1]s ORDER BY %[1]s`, group))
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
func alertStates(ctx context.Context, tx *sql.Tx, alert string) (map[string]alertState, bool, error) {
	rows, err := tx.QueryContext(ctx, "SELECT key, above, crossings FROM watch_alerts WHERE alert = ?", alert)
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

func saveAlertState(ctx context.Context, tx *sql.Tx, alert, key string, above bool, crossings int) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO watch_alerts (alert, key, above, crossings) VALUES (?, ?, ?, ?)
		ON CONFLICT (alert, key) DO UPDATE SET above = excluded.above, crossings = excluded.crossings`, alert, key, above, crossings)
	return err
}
