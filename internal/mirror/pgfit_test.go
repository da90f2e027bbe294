package mirror

import (
	"context"
	"regexp"
	"testing"
)

// A server sending text where the mirror has a numeric column (a status
// "sent", a product id "n/a", a variant id 1.5, a flag beyond 32 bits) does
// not stop the sync on either backend: SQLite keeps the value in the
// column; PostgreSQL, whose columns refuse another type, stores NULL there.
// The row's JSON as sent keeps the value on both.
func TestHostileNumbersDoNotStopTheSync(t *testing.T) {
	w := newWorld(t, 20)
	hostile := []struct {
		re   *regexp.Regexp
		with string
	}{
		{regexp.MustCompile(`"status":\s*\d+`), `"status":"sent"`},
		{regexp.MustCompile(`"product_id":\s*\d+`), `"product_id":"n/a"`},
		{regexp.MustCompile(`"variant_id":\s*\d+`), `"variant_id":1.5`},
	}
	w.after = func(body []byte) []byte {
		for _, h := range hostile {
			body = h.re.ReplaceAll(body, []byte(h.with))
		}
		return body
	}
	w.sync(SyncOptions{}, "bis")
	if n := w.count(`SELECT count(*) FROM submissions WHERE list_json LIKE '%"product_id":"n/a"%' AND list_json LIKE '%"status":"sent"%'`); n != 20 {
		t.Fatalf("%d rows keep the values as sent, want 20", n)
	}
	kept := `SELECT count(*) FROM submissions WHERE status = 'sent' AND product_id = 'n/a' AND variant_id = 1.5`
	if onPostgres {
		kept = "SELECT count(*) FROM submissions WHERE status IS NULL AND product_id IS NULL AND variant_id IS NULL"
	}
	if n := w.count(kept); n != 20 {
		t.Fatalf("%d rows with the columns as expected (%s), want 20", n, kept)
	}
	var id string
	if err := w.db.sql().QueryRow("SELECT id FROM submissions ORDER BY id LIMIT 1").Scan(&id); err != nil {
		t.Fatal(err)
	}
	detail := []byte(`{"id":` + id + `,"status":1,"unsubscribe":99999999999,"product_id":"12x","opened":{"at":"x"}}`)
	if _, err := w.db.storeDetail(context.Background(), submissions, id, detail); err != nil {
		t.Fatalf("a hostile detail: %v", err)
	}
	if n := w.count("SELECT count(*) FROM submissions WHERE id = $1 AND status = 1 AND detail_json = $2", id, string(detail)); n != 1 {
		t.Fatalf("the detail was not stored with its fitting columns")
	}
}
