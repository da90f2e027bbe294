package mcp

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCleanKeepsDigitsAndDropsWhatHides(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		redact         bool
	}{
		{"plain JSON comes back byte for byte", `{"id": 9007199254740993, "t": "a/b"}`, `{"id": 9007199254740993, "t": "a/b"}`, false},
		{"big numbers keep their digits", `{"id":9007199254740993,"x":1.50,"t":"é"}`, `{"id":9007199254740993,"x":1.50,"t":"é"}`, false},
		{"escape sequences", `{"t":"Parka\u001b]0;pwned\u0007 (limited)"}`, `{"t":"Parka (limited)"}`, false},
		{"bidi, zero-width and tag characters", "{\"t\":\"a\u202eb\u200bc\U000E0041d\u00ade\"}", `{"t":"abcde"}`, false},
		{"keys too", `{"k\u001b[2Jey":[1,"x\u0007"]}`, `{"key":[1,"x"]}`, false},
		{"HTML stays as it is", `{"t":"<b>&</b>"}`, `{"t":"<b>&</b>"}`, false},
		{"e-mails and phones masked", `{"customer_email":"zoe@example.com","customer_phone":"+1 (212) 555-0192","note":"write to ann.lee@shop.example"}`,
			`{"customer_email":"z***@example.com","customer_phone":"+*********92","note":"write to a***@shop.example"}`, true},
	} {
		got, err := cleaner{redactPII: tc.redact}.item(json.RawMessage(tc.in))
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: %s, %v; want %s", tc.name, got, err, tc.want)
		}
	}
}

func TestSecretsAreScrubbed(t *testing.T) {
	s := &Secrets{}
	s.Learn("shop_live_0123456789", "short", "")
	if got := s.Scrub("bad token Bearer shop_live_0123456789 (short)"); got != "bad token Bearer [redacted] (short)" {
		t.Errorf("scrubbed: %q", got)
	}
}

func TestPagesAreCapped(t *testing.T) {
	var items []json.RawMessage
	for i := 0; i < 300; i++ {
		items = append(items, json.RawMessage(`{"id":1,"t":"`+strings.Repeat("x", 1000)+`"}`))
	}
	r := &result{}
	next, err := r.page(items, 0, 500, cleaner{})
	if err != nil || r.Returned != 96 || next != 96 || !r.Truncated || *r.Total != 300 {
		t.Errorf("1 KB items: returned %d, next %d, truncated %v, %v", r.Returned, next, r.Truncated, err)
	}
	huge := json.RawMessage(`{"id":12345678901234567890,"t":"` + strings.Repeat("x", 1<<20) + `"}`)
	r = &result{}
	if _, err := r.page([]json.RawMessage{huge}, 0, 10, cleaner{}); err != nil || r.Returned != 1 || len(r.Items[0]) > 1000 ||
		!strings.Contains(string(r.Items[0]), `"id":12345678901234567890`) {
		t.Errorf("a 1 MiB item: %s, %v", r.Items, err)
	}
}

func TestCursorsBelongToTheirQuestion(t *testing.T) {
	q := question("find_submissions", "eu", map[string]string{"email": "a@b.example"})
	c := cursor{Q: q, O: 25}.String()
	if got, err := readCursor(c, q); err != nil || got.O != 25 {
		t.Errorf("its own question: %+v, %v", got, err)
	}
	if _, err := readCursor(c, question("find_submissions", "us", map[string]string{"email": "a@b.example"})); err == nil {
		t.Error("another store's question took the cursor")
	}
	if _, err := readCursor("not a cursor", q); err == nil {
		t.Error("a made-up cursor was taken")
	}
}
