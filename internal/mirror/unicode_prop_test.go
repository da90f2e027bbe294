package mirror

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/storectl/storectl/internal/ratelimit"
	"github.com/storectl/storectl/internal/sandbox"
)

// Random Unicode in every string field of the answers (U+0000, lone
// surrogates, pairs, noncharacters, bidi controls, characters of four
// bytes, escaped backslashes before "u0000", control escapes, bytes that
// are not UTF-8), through
// the sandbox into a SQLite mirror and a PostgreSQL one of the same store:
// every pass completes, and the two give the same answers row for row,
// the JSON of each row byte for byte as the server sent it (but for bytes
// that are not UTF-8, which JSON may not carry: U+FFFD). Each round
// changes every row's text, so that the rows are rewritten too.
func TestRandomUnicodeBothBackendsAgree(t *testing.T) {
	if onPostgres {
		t.Skip("compares SQLite with PostgreSQL: runs once, in the SQLite run")
	}
	lite := newWorld(t, 40)
	pg := lite.twinOnPostgres()
	for round := range uint64(3) {
		text := randomText(round)
		lite.after, pg.after = text, text
		for _, w := range []*world{lite, pg} {
			for _, r := range w.sync(SyncOptions{Full: true, Details: true}, "bis", "preorder", "comingsoon") {
				if len(r.Odd) > 0 {
					t.Fatalf("round %d: %s parked %q", round, r.Resource, r.Odd)
				}
			}
		}
		a, b := answers(t, lite), answers(t, pg)
		for name, rows := range a {
			if len(rows) == 0 {
				t.Fatalf("round %d: %s gave no row", round, name)
			}
			sameRows(t, fmt.Sprintf("round %d: %s on PostgreSQL (SQLite's)", round, name), b[name], rows)
		}
		// PostgreSQL's jsonb reads the text as Go's decoder and the
		// derived columns do (storable_json against backend.StorableText).
		_, fromJSONB, err := queryAll(pg.readOnly(), "SELECT id, detail_jsonb->>'locale' AS locale, detail_jsonb->>'note' AS note FROM submissions ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		_, fromColumns, err := queryAll(lite.readOnly(), "SELECT id, locale, note FROM submissions ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		sameRows(t, fmt.Sprintf("round %d: PostgreSQL's detail_jsonb (SQLite's columns)", round), fromJSONB, fromColumns)
		// As sent, but for bytes that are not UTF-8 (StorableJSON).
		sent := listedAsSent(t, lite.client.ListSubmissions)
		for i, raw := range sent {
			sent[i] = bytes.ToValidUTF8(raw, []byte("\uFFFD"))
		}
		sameRows(t, fmt.Sprintf("round %d: find", round), a["find"], sent)
	}
}

// answers are what the mirror's answers give, each a list of JSON rows.
func answers(t *testing.T, w *world) map[string][]json.RawMessage {
	t.Helper()
	ctx := context.Background()
	out := map[string][]json.RawMessage{}
	var err error
	if out["find"], err = w.db.Find(ctx, FindFilter{}); err != nil {
		t.Fatalf("find: %v", err)
	}
	for _, details := range []bool{false, true} {
		name := fmt.Sprintf("the offline walk (details %v)", details)
		if _, _, err := w.db.EachSubmission(ctx, details, func(raw json.RawMessage) error {
			out[name] = append(out[name], raw)
			return nil
		}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	for _, byVariant := range []bool{false, true} {
		name := fmt.Sprintf("demand (by variant %v)", byVariant)
		if out[name], err = w.db.Demand(ctx, DemandFilter{ByVariant: byVariant}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if _, out["offers"], err = w.db.Priority(ctx, PriorityFilter{ProductID: "1"}); err != nil {
		t.Fatalf("offers: %v", err)
	}
	for _, q := range []string{
		"SELECT id, customer_email, customer_phone, product_title, variant_title, sku, locale, content, note, list_json, detail_json FROM submissions ORDER BY id",
		"SELECT id, offer_name, collection_name, list_json, detail_json FROM offers ORDER BY id",
		"SELECT id, name, list_json, detail_json FROM rules ORDER BY id",
		"SELECT id, label, placeholder, field_json FROM form_fields ORDER BY id",
	} {
		if _, out[q], err = queryAll(w.readOnly(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return out
}

// twinOnPostgres is a world of the same sandbox store as w's, whose mirror
// is a fresh PostgreSQL database.
func (w *world) twinOnPostgres() *world {
	w.t.Helper()
	tw := &world{t: w.t, store: w.store, log: &logBuffer{}, now: w.now}
	tw.rt = sandbox.Transport(sandbox.New(sandbox.Options{Store: tw.store, Log: tw.log, Now: tw.now}))
	tw.client = tw.newClient(ratelimit.Limit{})
	tw.path = filepath.Join(w.t.TempDir(), "unused.db")
	tw.pg = pgMigratedTarget(w.t)
	tw.open()
	return tw
}

// stringMember is the start of a member whose value is a string.
var stringMember = regexp.MustCompile(`"[a-zA-Z_]+":"`)

// randomText rewrites an answer, putting random text at the start of
// every string member but the ids and times the mirror reads as such. The
// text depends on the round and the answer alone, so that the two worlds
// are sent the same bytes.
func randomText(round uint64) func(body []byte) []byte {
	return func(body []byte) []byte {
		h := fnv.New64a()
		h.Write(body)
		rng := rand.New(rand.NewPCG(round, h.Sum64()))
		return stringMember.ReplaceAllFunc(body, func(m []byte) []byte {
			key := string(m[1 : bytes.IndexByte(m[1:], '"')+1])
			if key == "id" || strings.HasSuffix(key, "_id") || strings.HasSuffix(key, "_at") || strings.HasSuffix(key, "_date") {
				return m
			}
			return []byte(string(m) + randomJSONText(rng))
		})
	}
}

// randomJSONText is the inside of a JSON string literal, as a server may
// write it: a few pieces of text JSON allows, most of them ones that no
// database text or jsonb holds as written.
func randomJSONText(rng *rand.Rand) string {
	var b strings.Builder
	for range rng.IntN(6) + 1 {
		switch rng.IntN(13) {
		case 0:
			b.WriteString(`\u0000`)
		case 1: // a lone high surrogate, in either case
			fmt.Fprintf(&b, hexCase(rng, `\u%04x`), 0xd800+rng.IntN(0x400))
		case 2: // a lone low surrogate
			fmt.Fprintf(&b, hexCase(rng, `\u%04x`), 0xdc00+rng.IntN(0x400))
		case 3: // a valid pair
			r := rune(0x10000 + rng.IntN(0x100000))
			hi, lo := 0xd800+(r-0x10000)>>10, 0xdc00+(r-0x10000)&0x3ff
			fmt.Fprintf(&b, hexCase(rng, `\u%04x\u%04x`), hi, lo)
		case 4: // a high surrogate before something else than a low one
			fmt.Fprintf(&b, `\u%04x\u0041`, 0xd800+rng.IntN(0x400))
		case 5: // a character of four bytes, as UTF-8 (noncharacters too)
			b.WriteRune(rune(0x10000 + rng.IntN(0x100000)))
		case 6: // noncharacters
			fmt.Fprintf(&b, `\u%04x`, []int{0xfdd0 + rng.IntN(32), 0xfffe, 0xffff}[rng.IntN(3)])
			b.WriteRune([]rune{0xfdd0, 0xfffe, 0xffff, 0x1fffe, 0x10ffff}[rng.IntN(5)])
		case 7: // bidi controls, as UTF-8 and as escapes
			r := []rune{0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c}[rng.IntN(12)]
			b.WriteRune(r)
			fmt.Fprintf(&b, `\u%04x`, r)
		case 8: // an escaped backslash before what would be an escape
			b.WriteString([]string{`\\u0000`, `\\\u0000`, `\\ud800`, `\\\\`}[rng.IntN(4)])
		case 9: // control characters, escaped
			b.WriteString([]string{`\n`, `\t`, `\b`, `\f`, `\r`, `\u001f`, `\u007f`, `\"`, `\/`}[rng.IntN(9)])
		case 10: // any other character of the BMP
			r := rune(0x80 + rng.IntN(0xd800-0x80))
			if utf8.ValidRune(r) {
				b.WriteRune(r)
			}
		case 11: // bytes that are not UTF-8, which JSON may not carry
			b.WriteString([]string{"\xff", "\xc3(", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80", "\x80\x80"}[rng.IntN(6)])
		default:
			b.WriteString("plain text ")
		}
	}
	return b.String()
}

// hexCase is format with its hex digits in upper case half of the time.
func hexCase(rng *rand.Rand, format string) string {
	if rng.IntN(2) == 0 {
		return strings.ReplaceAll(format, "x", "X")
	}
	return format
}
