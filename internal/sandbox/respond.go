package sandbox

import (
	"net/http"
	"strconv"
	"time"
)

// field is one member of an object.
type field struct {
	key   string
	value any
}

// object is a JSON object whose members keep the order they were appended in.
// The spec documents fields in a fixed order and some of them only in some
// cases (fulfillment_shipping_date, products, partial_payment_*), which a
// struct with omitempty cannot express when a present field may be null.
type object []field

func (o object) MarshalJSON() ([]byte, error) {
	return o.appendTo(nil)
}

// marshal encodes v; see appendJSON.
func marshal(v any) ([]byte, error) {
	return appendJSON(nil, v)
}

// writeJSON sends body with the given status.
func writeJSON(w http.ResponseWriter, status int, body any) {
	data, err := marshal(body)
	if err != nil {
		status = http.StatusInternalServerError
		data = []byte(`{"success":false,"message":"Something went wrong"}`)
	}
	writeRaw(w, status, data)
}

// writeRaw sends an already encoded JSON body.
func writeRaw(w http.ResponseWriter, status int, data []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

// writeFailure sends the shop and catalog APIs' failure body.
func writeFailure(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, object{{"success", false}, {"message", message}})
}

// isoTime formats a time the way the API's created_at, updated_at and
// last_sent fields are: ISO 8601 in UTC with microseconds and Z.
func isoTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000Z")
}

// isoTimePtr is isoTime for a nullable time.
func isoTimePtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return isoTime(*t)
}

// sqlTime formats a time the way the database returns it uncast:
// YYYY-MM-DD HH:MM:SS in UTC.
func sqlTime(t time.Time) string {
	return t.UTC().Format(time.DateTime)
}

// sqlTimePtr is sqlTime for a nullable time.
func sqlTimePtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return sqlTime(*t)
}
