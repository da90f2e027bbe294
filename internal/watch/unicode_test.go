package watch

import (
	"bytes"
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/sandbox"
)

// A watched list's rows holding U+0000 or lone surrogates (which
// PostgreSQL's text and jsonb refuse) become events like any other, in the
// page's transaction, each carrying the row as the server sent it.
func TestEventsCarryHostileUnicodeAsSent(t *testing.T) {
	w := watchWorld(t, 10, "bis")
	const hostile = `\u0000\ud800x\udc00\ud83d\ude00\\u0000`
	email := regexp.MustCompile(`"customer_email":"`)
	w.after = func(body []byte) []byte { return email.ReplaceAll(body, []byte(`"customer_email":"`+hostile)) }
	if err := sandbox.AddSubmissions(w.store, 2, time.Now()); err != nil {
		t.Fatal(err)
	}
	w.sync(mirror.SyncOptions{Full: true}, "bis")
	evs, err := Events(context.Background(), w.db, EventFilter{})
	if err != nil {
		t.Fatal(err)
	}
	created := 0
	for _, e := range evs {
		if !bytes.Contains(e.Data, []byte(`"customer_email":"`+hostile)) {
			t.Fatalf("event %s %s lost the text as sent: %s", e.Type, e.RowID, e.Data)
		}
		if e.Type == SubmissionCreated {
			created++
		}
	}
	if created != 2 {
		t.Fatalf("events %v, want the 2 new submissions'", w.events())
	}
}
