// Package watch is the engine of `storectl watch`: it runs the mirror's
// incremental sync on a schedule, has the mirror derive events from what
// changed (into its outbox, in the transactions that store the pages),
// and delivers them in order to stdout, a signed webhook or a command,
// retrying with backoff and parking what keeps failing. Events are
// delivered at least once, each with a stable id.
package watch

import (
	"bytes"
	"encoding/json"
	"time"
)

// Encode is an event as delivered: one JSON object, keys in the order of
// the contract (docs/watch.md), data as the API sent it.
func Encode(e Event, profile, store string) []byte {
	var b bytes.Buffer
	b.WriteString(`{"id":`)
	writeString(&b, e.ID)
	b.WriteString(`,"type":`)
	writeString(&b, e.Type)
	b.WriteString(`,"occurred_at":`)
	writeString(&b, stamp(e.OccurredAt))
	b.WriteString(`,"detected_at":`)
	writeString(&b, stamp(e.DetectedAt))
	b.WriteString(`,"profile":`)
	writeString(&b, profile)
	b.WriteString(`,"store":`)
	writeString(&b, store)
	b.WriteString(`,"data":`)
	if err := json.Compact(&b, e.Data); err != nil {
		b.WriteString("null")
	}
	b.WriteByte('}')
	return b.Bytes()
}

func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Truncate(b.Len() - 1) // Encode's newline
}

// stamp is how events write times: RFC 3339 in UTC, with microseconds.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z") }
