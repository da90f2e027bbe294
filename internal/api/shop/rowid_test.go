package shop

import (
	"encoding/json"
	"testing"
)

// rowIDCases are rows whose id RowID must read as json.Unmarshal does:
// the common shapes, and those idMember must leave to the decoder.
var rowIDCases = []string{
	`{"id":123,"name":"a"}`, `{"name":"a","id":"0042"}`, ` { "a" : [1,{"id":9}] , "id" : 7 } `,
	`{"id":"  12  "}`, `{"id":"abc"}`, `{"id":1.5}`, `{"id":99999999999999999999}`, `{"id":-3}`,
	`{"id":null}`, `{"id":""}`, `{"id":{}}`, `{"id":[1]}`, `{"id":true}`, `{}`, `{"ID":5}`, `{"Id":5,"id":6}`,
	`{"id":5,"ID":6}`, `{"id":5,"id":6}`, `{"\u0069d":5}`, `{"i\"d":5,"id":2}`, `{"x":"\"}\\","id":8}`,
	`[1]`, `"x"`, `12`, `null`, `{"id":12}` + "\n", `{"a":{"b":{"c":[{"id":1}]}},"id":"3"}`, `{"ſd":1,"id":4}`,
	`{"İd":1,"id":4}`, `{"k":"é","id":10}`,
}

func TestRowIDReadsWhatADecoderReads(t *testing.T) {
	for _, c := range rowIDCases {
		checkRowID(t, []byte(c))
	}
}

func FuzzRowID(f *testing.F) {
	for _, c := range rowIDCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if json.Valid(raw) { // RowID's rows come from a decoded page
			checkRowID(t, raw)
		}
	})
}

func checkRowID(t *testing.T, raw []byte) {
	t.Helper()
	got, err := RowID(raw)
	want, wantErr := decodeRowID(raw)
	if got != want || (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
		t.Errorf("RowID(%s) = %q, %v; json.Unmarshal reads %q, %v", raw, got, err, want, wantErr)
	}
}

func BenchmarkRowID(b *testing.B) {
	row := []byte(`{"id":8412345678,"product_id":7000000001,"variant_id":41000000001,"customer_email":"ada@example.com",` +
		`"customer_phone":"+1 (480) 555-0172","product_title":"A \"quoted\" title","variant_title":"Large / Blue",` +
		`"sku":"SKU-1","status":0,"created_at":"2026-11-01T10:00:00Z","updated_at":"2026-11-01T10:00:00Z"}`)
	for b.Loop() {
		if _, err := RowID(row); err != nil {
			b.Fatal(err)
		}
	}
}
