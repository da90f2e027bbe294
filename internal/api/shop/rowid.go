package shop

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/storectl/storectl/internal/api/flex"
	"github.com/storectl/storectl/internal/ids"
	"github.com/storectl/storectl/internal/jsonscan"
)

// RowID reads a list row's id: in its canonical form when it is one of
// the platform's ids (an integer or a string of digits, up to 2^63−1),
// else as sent (beyond 64 bits, a decimal, letters), so that such a row is
// still walked, once, and never stops a listing for good: callers tell
// them apart with ids.Normalize and say so. A row without an id is an
// error: nothing tells it from another.
//
// raw is a row of a decoded page, so valid JSON: its members are read
// without decoding the row a second time (json.Unmarshal checked and
// decoded each row again, for every row a sync stores; BenchmarkRowID
// compares). Where that reading
// cannot tell what json.Unmarshal would say (a key that matches "id" only
// in another case or spelt with escapes, the id given twice, no id, an id
// flex.ID refuses), the row is decoded as before.
func RowID(raw json.RawMessage) (string, error) {
	if v, ok := idMember(raw); ok {
		if id, ok := idValue(v); ok {
			return canonicalRowID(id), nil
		}
	}
	return decodeRowID(raw)
}

// idValue is the id a member's raw value holds, as flex.ID reads it: an
// integer's digits as they are (the platform's ids), anything else through
// flex.ID. ok is false for a value flex.ID refuses or reads as empty.
func idValue(v []byte) (flex.ID, bool) {
	digits := true
	for _, c := range v {
		digits = digits && '0' <= c && c <= '9'
	}
	if digits {
		return flex.ID(v), true
	}
	var id flex.ID
	return id, id.UnmarshalJSON(v) == nil && id != ""
}

// decodeRowID is RowID by json.Unmarshal, for the rows idMember leaves.
func decodeRowID(raw json.RawMessage) (string, error) {
	var row struct {
		ID flex.ID `json:"id"`
	}
	if err := json.Unmarshal(raw, &row); err != nil {
		return "", fmt.Errorf("a list row is not an object: %w", err)
	}
	if row.ID == "" {
		return "", fmt.Errorf("a list row has no id")
	}
	return canonicalRowID(row.ID), nil
}

func canonicalRowID(id flex.ID) string {
	if n, ok := ids.Normalize(string(id)); ok {
		return n
	}
	return string(id)
}

// idMember finds the raw value of the valid JSON object raw's one member
// named exactly "id"; ok is false when raw is not an object, has no such
// member or more than one, or has a key json.Unmarshal would also take for
// "id" (another case, escapes).
func idMember(raw []byte) (value []byte, ok bool) {
	obj := raw[jsonscan.SkipSpace(raw, 0):]
	if len(obj) == 0 || obj[0] != '{' {
		return nil, false
	}
	ok = true
	jsonscan.EachMember(obj, func(rawKey, v []byte) bool {
		key := rawKey[1 : len(rawKey)-1]
		switch {
		case string(key) == "id" && value == nil:
			value = v
		case bytes.EqualFold(key, []byte("id")) || bytes.IndexByte(key, '\\') >= 0:
			ok = false
		}
		return ok
	})
	return value, ok && len(value) > 0
}
