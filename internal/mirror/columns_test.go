package mirror

import (
	"encoding/json"
	"reflect"
	"testing"
)

// columnValuesByMap is how columnValues read a row before it scanned the
// object once: decoded into a map, each column's value read from it. The
// scan must give the same values for every valid object.
func columnValuesByMap(r *resource, raw json.RawMessage, cols []string) ([]any, bool) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, false
	}
	vals := make([]any, len(cols))
	for i, c := range cols {
		if v, ok := obj[c]; ok {
			vals[i] = sqlValue(v, r.idCols[c])
		}
	}
	return vals, true
}

var columnSeeds = []string{
	`{"id":7,"customer_email":"a@example.com","product_id":"12","variant_id":34,"status":0,"sku":null}`,
	` {"id": 7, "customer_email" : "a\u0040example.com", "sku": "S\"1", "created_at": "2026-01-02 03:04:05"} `,
	`{"id":1,"id":2,"status":true,"sku":"x","sku":"y"}`,
	`{"customer_name":{"first":"A","last":["B", 1]},"product_title":"caf\u00e9 ☕","variant_title":"\ud83d\ude00"}`,
	"{\"customer_email\":\"bad \xff utf8\",\"product_id\":\"not a number\",\"variant_id\":1.5,\"status\":1e400}",
	`{"cust\u006fmer_email":"escaped key","":1,"sku":""}`,
	`{}`, `[]`, `null`, `"text"`, `17`,
}

func checkColumnValues(t *testing.T, raw string) {
	t.Helper()
	cols := submissions.listCols
	want, ok := columnValuesByMap(submissions, json.RawMessage(raw), cols)
	got, err := submissions.columnValues(json.RawMessage(raw), cols)
	if ok != (err == nil) {
		t.Fatalf("%s: the map's decode ok=%v, the scan's error %v", raw, ok, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %#v\nwant %#v", raw, got, want)
	}
}

func TestColumnValuesReadsWhatADecoderReads(t *testing.T) {
	for _, raw := range columnSeeds {
		checkColumnValues(t, raw)
	}
}

// FuzzColumnValues: for every valid JSON value, the one-scan reading of
// the columns equals the map decode's (columnValues is only given parts of
// decoded documents: invalid text is not its input).
func FuzzColumnValues(f *testing.F) {
	for _, s := range columnSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if !json.Valid([]byte(raw)) {
			t.Skip()
		}
		checkColumnValues(t, raw)
	})
}
