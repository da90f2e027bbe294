package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestEachMemberReadsWhatADecoderReads(t *testing.T) {
	for _, obj := range []string{
		`{}`, `{ }`,
		`{"id":1}`,
		`{ "a" : "x,}]" , "b":[1,{"c":"\"}"}], "d" : {"e":null} ,"f":-1.5e3,"g":true }`,
		`{"k\"ey":"v\\","":""}`,
	} {
		want := map[string]json.RawMessage{}
		if err := json.Unmarshal([]byte(obj), &want); err != nil {
			t.Fatal(err)
		}
		got := map[string]json.RawMessage{}
		EachMember([]byte(obj), func(rawKey, value []byte) bool {
			var key string
			if err := json.Unmarshal(rawKey, &key); err != nil {
				t.Fatalf("%s: key %s: %v", obj, rawKey, err)
			}
			got[key] = value
			return true
		})
		if len(got) != len(want) {
			t.Fatalf("%s: members %v, want %v", obj, got, want)
		}
		for k, v := range want {
			if !bytes.Equal(got[k], bytes.TrimSpace(v)) {
				t.Errorf("%s: member %q = %s, want %s", obj, k, got[k], v)
			}
		}
	}
}

func TestEachMemberStopsWhenAsked(t *testing.T) {
	n := 0
	EachMember([]byte(`{"a":1,"b":2,"c":3}`), func(_, _ []byte) bool { n++; return n < 2 })
	if n != 2 {
		t.Fatalf("fn called %d times, want 2", n)
	}
}
