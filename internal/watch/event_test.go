package watch

import (
	"encoding/json"
	"testing"
	"time"
)

func TestEncodeKeepsTheContract(t *testing.T) {
	e := Event{ID: "evt_1", Type: "submission.created",
		OccurredAt: time.Date(2026, 11, 1, 10, 0, 0, 123456000, time.UTC), DetectedAt: time.Date(2026, 11, 1, 10, 1, 0, 0, time.FixedZone("x", 3600)),
		Data: json.RawMessage(`{ "id": 12345678901234567890, "note": "<b>&</b>", "unknown": [1] }`)}
	got := string(Encode(e, "eu", "https://shop.example.com"))
	want := `{"id":"evt_1","type":"submission.created","occurred_at":"2026-11-01T10:00:00.123456Z","detected_at":"2026-11-01T09:01:00.000000Z",` +
		`"profile":"eu","store":"https://shop.example.com","data":{"id":12345678901234567890,"note":"<b>&</b>","unknown":[1]}}`
	if got != want {
		t.Fatalf("Encode:\n%s\nwant\n%s", got, want)
	}
}
