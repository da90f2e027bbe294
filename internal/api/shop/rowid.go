package shop

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/storectl/storectl/internal/api/flex"
	"github.com/storectl/storectl/internal/ids"
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
// decoded each row again, 4% of a first sync's CPU). Where that reading
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
	i := skipJSONSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	i = skipJSONSpace(raw, i+1)
	for i < len(raw) && raw[i] == '"' {
		keyEnd := skipJSONValue(raw, i)
		key := raw[i+1 : max(i+1, keyEnd-1)]
		i = skipJSONSpace(raw, keyEnd)
		if i >= len(raw) || raw[i] != ':' {
			return nil, false
		}
		i = skipJSONSpace(raw, i+1)
		end := skipJSONValue(raw, i)
		switch {
		case string(key) == "id" && value == nil:
			value = raw[i:end]
		case bytes.EqualFold(key, []byte("id")) || bytes.IndexByte(key, '\\') >= 0:
			return nil, false
		}
		i = skipJSONSpace(raw, end)
		if i < len(raw) && raw[i] == '}' {
			return value, len(value) > 0
		}
		if i >= len(raw) || raw[i] != ',' {
			return nil, false
		}
		i = skipJSONSpace(raw, i+1)
	}
	return nil, false
}

func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipJSONValue returns where the value starting at b[i] ends, or len(b).
func skipJSONValue(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			i = skipJSONString(b, i)
			if depth == 0 {
				return i
			}
			i--
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',', ' ', '\t', '\n', '\r', ':':
			if depth == 0 {
				return i
			}
		}
	}
	return len(b)
}

// skipJSONString returns the index just past the string starting at b[i].
func skipJSONString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}
