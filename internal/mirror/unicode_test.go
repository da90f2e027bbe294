package mirror

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/mirror/postgres"
)

// hostileEscapes is text a JSON string may carry that a database's text
// or jsonb may not hold as is: U+0000, lone surrogates (high, low, a high
// before a plain escape), a valid pair, an escaped backslash before
// "u0000" (not an escape), noncharacters, a bidi override.
const hostileEscapes = `\u0000\ud800x\udc00\ud83d\ude00\ud800\u0041\\u0000\ufdd0\uffff\u202e`

// hostileFields are string fields of every list and detail, in whose
// values hostileEscapes is put.
var hostileFields = regexp.MustCompile(`"(customer_email|product_title|variant_title|sku|content|note|locale|offer_name|collection_name|name)":"`)

// withHostileText puts hostileEscapes at the start of each hostile field
// of an answer.
func withHostileText(body []byte) []byte {
	return hostileFields.ReplaceAll(body, []byte(`"$1":"`+hostileEscapes))
}

// A row holding U+0000 or lone surrogates in any string field of its list
// item or its detail is stored (PostgreSQL's jsonb and text hold neither;
// the JSON as sent is text holding the escapes as written), and every
// answer that prints rows gives back the bytes the server sent: find,
// the offline walk (bis list, bis export --offline), a detail, pre-order
// rows and offers, an online export, mirror query. The columns derived
// from such text hold it with U+FFFD in their place, on both backends.
func TestHostileUnicodeIsKeptAsSent(t *testing.T) {
	w := newWorld(t, 30)
	w.after = withHostileText
	ctx := context.Background()
	results := w.sync(SyncOptions{Full: true, Details: true}, "bis", "preorder", "comingsoon")
	for _, r := range results {
		if len(r.Odd) > 0 {
			t.Errorf("%s parked %v: every row was storable", r.Resource, r.Odd)
		}
	}
	sent := listedAsSent(t, w.client.ListSubmissions)
	if !strings.Contains(string(sent[0]), `"customer_email":"`+hostileEscapes) {
		t.Fatalf("the sandbox's answer lacks the hostile text: %s", sent[0])
	}

	found, err := w.db.Find(ctx, FindFilter{})
	if err != nil {
		t.Fatalf("find: %v", err)
	}
	sameRows(t, "find", found, sent)

	var walked []json.RawMessage
	if _, _, err := w.db.EachSubmission(ctx, false, func(raw json.RawMessage) error {
		walked = append(walked, raw)
		return nil
	}); err != nil {
		t.Fatalf("the offline walk: %v", err)
	}
	sameRows(t, "the offline walk", walked, sent)

	var details, sentDetails []json.RawMessage
	if _, missing, err := w.db.EachSubmission(ctx, true, func(raw json.RawMessage) error {
		details = append(details, raw)
		return nil
	}); err != nil || missing > 0 {
		t.Fatalf("the offline walk of details: %d without one, %v", missing, err)
	}
	for _, raw := range sent {
		got, err := w.client.GetSubmission(ctx, rowIDOf(t, raw))
		if err != nil {
			t.Fatal(err)
		}
		sentDetails = append(sentDetails, got.Raw)
	}
	if !bytes.Contains(sentDetails[0], []byte(`"locale":"`+hostileEscapes)) {
		t.Fatalf("the sandbox's detail lacks the hostile text: %s", sentDetails[0])
	}
	sameRows(t, "the details", details, sentDetails)

	offers := listedAsSent(t, func(ctx context.Context, page int) (*shop.Page, error) { return w.client.ListOffers(ctx, page, "") })
	_, offerItems, err := w.db.Priority(ctx, PriorityFilter{ProductID: "1"})
	if err != nil {
		t.Fatalf("the offers: %v", err)
	}
	if len(offerItems) != len(offers) {
		t.Fatalf("%d offers, the server sent %d", len(offerItems), len(offers))
	}
	for _, item := range offerItems { // each an offer's detail, as sent
		if !bytes.Contains(item, []byte(`"offer_name":"`+hostileEscapes)) {
			t.Fatalf("an offer lost the escapes: %s", item)
		}
	}

	var exported []json.RawMessage
	if _, err := w.db.Export(ctx, w.client, ExportOptions{Write: func(raw json.RawMessage) error {
		exported = append(exported, slices.Clone(raw))
		return nil
	}}); err != nil {
		t.Fatalf("export: %v", err)
	}
	sameRows(t, "export", exported, sent)

	_, queried, err := queryAll(w.readOnly(), "SELECT list_json FROM rules ORDER BY id")
	if err != nil || len(queried) == 0 {
		t.Fatalf("mirror query: %d rows, %v", len(queried), err)
	}
	for _, item := range queried {
		if !bytes.Contains(item, []byte(`\"name\":\"`+strings.ReplaceAll(hostileEscapes, `\`, `\\`))) {
			t.Fatalf("mirror query's list_json lost the escapes: %s", item)
		}
	}

	if onPostgres { // jsonb holds each escape it cannot hold as U+FFFD
		if n := w.count(`SELECT count(*) FROM submissions WHERE list_jsonb->>'customer_email' LIKE $1 AND detail_jsonb->>'locale' LIKE $1`,
			"\uFFFD\uFFFDx\uFFFD\U0001F600\uFFFDA%"); n != len(sent) {
			t.Fatalf("%d rows' jsonb hold the text with U+FFFD, want %d", n, len(sent))
		}
	}

	demand, err := w.db.Demand(ctx, DemandFilter{ByVariant: true})
	if err != nil || len(demand) == 0 {
		t.Fatalf("demand: %d rows, %v", len(demand), err)
	}
	// U+0000 and each lone surrogate as U+FFFD, the rest as decoded.
	const want = "\uFFFD\uFFFDx\uFFFD\U0001F600\uFFFDA\\u0000\uFDD0\uFFFF\u202E"
	for _, item := range demand {
		var row struct{ ProductTitle, VariantTitle string }
		if err := json.Unmarshal(item, &struct {
			P *string `json:"product_title"`
			V *string `json:"variant_title"`
		}{&row.ProductTitle, &row.VariantTitle}); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(row.ProductTitle, want) || !strings.HasPrefix(row.VariantTitle, want) {
			t.Fatalf("demand's titles %q, %q: want them to begin with %q", row.ProductTitle, row.VariantTitle, want)
		}
	}
}

// listedAsSent is every item of a list, as the server sends it, newest
// first.
func listedAsSent(t *testing.T, list func(ctx context.Context, page int) (*shop.Page, error)) []json.RawMessage {
	t.Helper()
	var out []json.RawMessage
	for page := 1; ; page++ {
		p, err := list(context.Background(), page)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p.Items...)
		if int64(page) >= p.Pagination.LastPage.Value || len(p.Items) == 0 {
			return out
		}
	}
}

// sameRows fails unless got holds the rows of want, byte for byte, in any
// order.
func sameRows(t *testing.T, what string, got, want []json.RawMessage) {
	t.Helper()
	g, wn := sortedRows(got), sortedRows(want)
	if len(g) != len(wn) {
		t.Fatalf("%s gave %d rows, the server sent %d", what, len(g), len(wn))
	}
	for i := range g {
		if g[i] != wn[i] {
			t.Fatalf("%s gave\n%s\nwhere the server sent\n%s", what, g[i], wn[i])
		}
	}
}

func sortedRows(rows []json.RawMessage) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = string(r)
	}
	slices.Sort(out)
	return out
}

func rowIDOf(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var row struct{ ID json.Number }
	if err := json.Unmarshal(raw, &row); err != nil {
		t.Fatal(err)
	}
	return row.ID.String()
}

// A row whose own id holds U+0000 or a lone surrogate is not a 64-bit id:
// it is parked with the other odd rows, as sent, and named; the pass goes
// on, and the next pass parks it again in the same place.
func TestHostileIDIsParked(t *testing.T) {
	w := newWorld(t, 12)
	first := regexp.MustCompile(`"data":\[\{"id":\d+`)
	w.after = func(body []byte) []byte {
		return first.ReplaceAll(body, []byte(`"data":[{"id":"\u0000 7\ud800"`))
	}
	for range 2 {
		res := w.sync(SyncOptions{Full: true}, "bis")
		if len(res[0].Odd) != 1 || res[0].Odd[0] != "\x00 7\uFFFD" {
			t.Fatalf("the pass named %q as odd, want the row whose id holds U+0000", res[0].Odd)
		}
	}
	var id, raw string
	if err := w.db.sql().QueryRow("SELECT id, list_json FROM odd_rows").Scan(&id, &raw); err != nil {
		t.Fatal(err)
	}
	if id != "\uFFFD 7\uFFFD" || !strings.HasPrefix(raw, `{"id":"\u0000 7\ud800",`) {
		t.Fatalf("odd_rows holds %q: %s", id, raw)
	}
	if n := w.count("SELECT count(*) FROM submissions"); n != 11 {
		t.Fatalf("%d submissions mirrored, want the 11 others", n)
	}
}

// JSON is UTF-8; a server sending other bytes in a string sends text
// neither backend holds as sent (PostgreSQL's text refuses it). The row
// is kept with U+FFFD for each run of such bytes, alike on both backends,
// the pass names it and goes on, and the next pass finds it unchanged.
func TestRowsNotUTF8AreRepairedAndNamed(t *testing.T) {
	w := newWorld(t, 8)
	w.after = func(body []byte) []byte {
		return hostileFields.ReplaceAll(body, []byte("\"$1\":\"\xff\xfe\xed\xa0\x80x\xc3"))
	}
	for pass := range 2 {
		res := w.sync(SyncOptions{Full: true, Details: true}, "bis")
		if len(res[0].Repaired) != 8 || res[0].Changed != 0 || pass == 1 && res[0].New != 0 {
			t.Fatalf("pass %d: %d new, %d changed, repaired %q: want the 8 rows named, none changed", pass, res[0].New, res[0].Changed, res[0].Repaired)
		}
	}
	sent := listedAsSent(t, w.client.ListSubmissions)
	for i, raw := range sent {
		if utf8.Valid(raw) {
			t.Fatalf("the sandbox's answer is UTF-8: %s", raw)
		}
		sent[i] = bytes.ToValidUTF8(raw, []byte("\uFFFD"))
	}
	found, err := w.db.Find(context.Background(), FindFilter{})
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, "find", found, sent)
	if n := w.count("SELECT count(*) FROM submissions WHERE detail_json LIKE $1 AND locale LIKE $1", "%\uFFFDx\uFFFD%"); n != 8 {
		t.Fatalf("%d details kept with U+FFFD, want 8", n)
	}
}

// A SQLite mirror holding such rows moves to PostgreSQL with mirror copy,
// and answers there as it did.
func TestCopyHostileUnicodeToPostgres(t *testing.T) {
	sqliteOnly(t, "the copy's source is a SQLite mirror (it ran in the run on SQLite)")
	w := newWorld(t, 12)
	w.after = func(body []byte) []byte {
		return hostileFields.ReplaceAll(withHostileText(body), []byte("\"$1\":\"\xff"))
	}
	w.sync(SyncOptions{Full: true, Details: true}, "bis", "preorder", "comingsoon")
	ctx := context.Background()
	tg := pgTarget(t)
	if _, err := w.db.CopyTo(ctx, postgres.At(tg), "https://sandbox.test"); err != nil {
		t.Fatalf("copy to PostgreSQL: %v", err)
	}
	pg, err := Open(ctx, postgres.At(tg), Options{Mode: ReadOnly, Store: "https://sandbox.test"})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	want, err := w.db.Find(ctx, FindFilter{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := pg.Find(ctx, FindFilter{})
	if err != nil {
		t.Fatalf("find on the copy: %v", err)
	}
	sameRows(t, "find on the copy", got, want)
	wantDemand, _ := w.db.Demand(ctx, DemandFilter{ByVariant: true})
	gotDemand, err := pg.Demand(ctx, DemandFilter{ByVariant: true})
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, "demand on the copy", gotDemand, wantDemand)
}

// A mirror synced before derived columns held U+0000 as U+FFFD keeps the
// NUL there; mirror copy still moves it to PostgreSQL (whose text refuses
// U+0000), each NUL as U+FFFD, as a sync now writes it on both backends.
func TestCopyOfAnOlderMirrorsNULToPostgres(t *testing.T) {
	sqliteOnly(t, "the copy's source is a SQLite mirror (it ran in the run on SQLite)")
	w := newWorld(t, 12)
	w.sync(SyncOptions{Full: true}, "bis")
	ctx := context.Background()
	if _, err := w.db.sql().ExecContext(ctx, `UPDATE submissions SET customer_email = 'old' || char(0) || '@example.com',
		product_title = char(0) || 'Title' WHERE id = (SELECT max(id) FROM submissions)`); err != nil {
		t.Fatal(err)
	}
	tg := pgTarget(t)
	if _, err := w.db.CopyTo(ctx, postgres.At(tg), "https://sandbox.test"); err != nil {
		t.Fatalf("copy to PostgreSQL: %v", err)
	}
	pg, err := Open(ctx, postgres.At(tg), Options{Mode: ReadOnly, Store: "https://sandbox.test"})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	var email, title string
	if err := pg.sql().QueryRowContext(ctx, "SELECT customer_email, product_title FROM submissions ORDER BY id DESC LIMIT 1").Scan(&email, &title); err != nil {
		t.Fatal(err)
	}
	if email != "old\uFFFD@example.com" || title != "\uFFFDTitle" {
		t.Errorf("the copy holds %q and %q, want each NUL as U+FFFD", email, title)
	}
}
