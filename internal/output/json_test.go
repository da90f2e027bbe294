package output

import (
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"
)

// FuzzJSONSafe checks jsonSafe's promise: the value a valid document
// encodes is unchanged (encoding/json reads invalid UTF-8 as U+FFFD, as the
// escape says), and no control character reaches the terminal raw.
func FuzzJSONSafe(f *testing.F) {
	for _, seed := range []string{
		`{"a":"plain"}`,
		"{\"a\":\"bell\x07 and esc\x1b[31m\"}",
		"[\"c1 \u009b31m\", \"del \x7f\", \"bad \xff utf8\"]",
		`{"esc\"aped":"\\\"\u0001"}`,
		"\"\xc2\x85\"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		out := jsonSafe(raw)
		for _, r := range string(out) {
			if (r < 0x20 && r != '\n' && r != '\r' && r != '\t') || (r >= 0x7f && r <= 0x9f) {
				if !json.Valid(raw) {
					continue // bytes outside strings are the validator's to judge
				}
				t.Fatalf("jsonSafe(%q) = %q: raw control %U left", raw, out, r)
			}
		}
		var before, after any
		if json.Unmarshal(raw, &before) != nil {
			return
		}
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("jsonSafe(%q) = %q: no longer valid: %v", raw, out, err)
		}
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("jsonSafe(%q) = %q changed the value: %#v → %#v", raw, out, before, after)
		}
		if utf8.Valid(raw) && json.Valid(raw) && string(out) != string(raw) && !hasTerminalControl(raw) {
			t.Fatalf("jsonSafe(%q) = %q: clean input must come back unchanged", raw, out)
		}
	})
}

func hasTerminalControl(raw []byte) bool {
	for _, r := range string(raw) {
		if r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return true
		}
	}
	return false
}
