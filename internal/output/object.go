package output

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/storectl/storectl/internal/jsonscan"
)

// Object is one JSON value with its raw bytes, for reading fields in table
// views. For a JSON object the top-level members are indexed in the order
// sent; nested values are located on demand without decoding the rest.
type Object struct {
	raw     json.RawMessage
	members []member
	// profile is the store a row of a merge over several stores came from
	// (mergedRows): its columns read it.
	profile string
}

type member struct {
	key    string
	rawKey []byte // the key as sent, quotes included
	value  json.RawMessage
}

// ParseObject checks that raw is one valid JSON value and indexes it.
func ParseObject(raw json.RawMessage) (Object, error) {
	return parseObjectAfter(raw, Object{})
}

// parseObjectAfter is ParseObject for a stream's items, each dropped once
// written: raw is indexed in prev's members, and a key sent as prev sent it
// at the same place keeps prev's string. The items of a list send their
// keys in one order, so such an item costs no allocation for its index
// (growing each row's index from nothing and copying every key was much of
// a long CSV export's writing). prev must not be used after.
func parseObjectAfter(raw json.RawMessage, prev Object) (Object, error) {
	raw = jsonSafe(raw)
	if !json.Valid(raw) {
		var v any
		return Object{}, invalidJSON(json.Unmarshal(raw, &v))
	}
	return indexAfter(raw, prev), nil
}

// indexAfter is parseObjectAfter for raw known to be one valid JSON
// value, escaped by jsonSafe: not checked again.
func indexAfter(raw json.RawMessage, prev Object) Object {
	raw = bytes.TrimSpace(raw)
	o := Object{raw: raw}
	if raw[0] == '{' {
		o.members = prev.members[:0]
		jsonscan.EachMember(raw, func(rawKey, value []byte) bool {
			o.members = append(o.members, member{key: keyAfter(rawKey, prev.members, len(o.members)), rawKey: rawKey, value: value})
			return true
		})
		if len(o.members) == 0 {
			o.members = nil // as ParseObject leaves an empty object
		}
	}
	return o
}

// keyAfter is rawKey unquoted: prev's key at place i when it is the same
// (compared with prev's string, not its bytes, which the caller may have
// reused since).
func keyAfter(rawKey []byte, prev []member, i int) string {
	if i < len(prev) && bytes.IndexByte(rawKey, '\\') < 0 && string(rawKey[1:len(rawKey)-1]) == prev[i].key {
		return prev[i].key
	}
	return unquote(rawKey)
}

// Raw returns the value's bytes as sent, surrounding whitespace trimmed and
// any raw control characters in strings escaped.
func (o Object) Raw() json.RawMessage { return o.raw }

// Keys returns the top-level keys in the order sent; nil when the value is
// not an object.
func (o Object) Keys() []string {
	if o.members == nil {
		return nil
	}
	keys := make([]string, len(o.members))
	for i, m := range o.members {
		keys[i] = m.key
	}
	return keys
}

// Get returns the raw value at a dotted path: "pagination.total",
// "variants.0.price". Array elements are addressed by their index. A key
// that itself contains dots is found too: at each level the whole remaining
// path is tried as a key first. The empty path is the value itself.
func (o Object) Get(path string) (json.RawMessage, bool) {
	if len(o.raw) == 0 { // the zero Object
		return nil, false
	}
	if path == "" {
		return o.raw, true
	}
	if o.members == nil {
		return lookup(o.raw, path)
	}
	for _, m := range o.members {
		if m.key == path {
			return m.value, true
		}
	}
	head, tail, nested := strings.Cut(path, ".")
	if !nested {
		return nil, false
	}
	for _, m := range o.members {
		if m.key == head {
			return lookup(m.value, tail)
		}
	}
	return nil, false
}

// String returns the display text of the value at path: strings unquoted,
// numbers as the literal sent, booleans as true/false, null or missing as "",
// arrays and objects as compact JSON. The text is not sanitised: the table
// and CSV writers do that.
func (o Object) String(path string) string {
	v, ok := o.Get(path)
	if !ok {
		return ""
	}
	return displayText(v)
}

func displayText(v []byte) string {
	switch v[0] {
	case '"':
		return unquote(v)
	case 'n':
		return ""
	case '{', '[':
		var b bytes.Buffer
		if json.Compact(&b, v) != nil {
			return string(v)
		}
		return b.String()
	}
	return string(v)
}

// lookup walks a dotted path through nested objects and arrays of valid JSON.
func lookup(v []byte, path string) (json.RawMessage, bool) {
	for {
		switch v[0] {
		case '{':
			if found, ok := memberValue(v, path); ok {
				return found, true
			}
			head, tail, nested := strings.Cut(path, ".")
			if !nested {
				return nil, false
			}
			found, ok := memberValue(v, head)
			if !ok {
				return nil, false
			}
			v, path = found, tail
		case '[':
			head, tail, nested := strings.Cut(path, ".")
			found, ok := element(v, head)
			if !ok || !nested {
				return found, ok
			}
			v, path = found, tail
		default:
			return nil, false
		}
	}
}

func memberValue(obj []byte, key string) (found json.RawMessage, ok bool) {
	jsonscan.EachMember(obj, func(rawKey, value []byte) bool {
		if keyEquals(rawKey, key) {
			found, ok = value, true
		}
		return !ok
	})
	return found, ok
}

// element returns the array element at a decimal index.
func element(arr []byte, index string) (json.RawMessage, bool) {
	if index == "" || strings.Trim(index, "0123456789") != "" {
		return nil, false
	}
	n, err := strconv.Atoi(index)
	if err != nil {
		return nil, false
	}
	i := jsonscan.SkipSpace(arr, 1)
	if arr[i] == ']' {
		return nil, false
	}
	for {
		end := jsonscan.SkipValue(arr, i)
		if n == 0 {
			return arr[i:end], true
		}
		n--
		i = jsonscan.SkipSpace(arr, end)
		if arr[i] == ']' {
			return nil, false
		}
		i = jsonscan.SkipSpace(arr, i+1) // past ','
	}
}

// keyEquals compares a raw key literal with a key without allocating in the
// common case of a key free of escapes.
func keyEquals(rawKey []byte, key string) bool {
	if bytes.IndexByte(rawKey, '\\') < 0 {
		return string(rawKey[1:len(rawKey)-1]) == key
	}
	return unquote(rawKey) == key
}

// EachMember calls fn with the key and the raw value of each member of
// obj, in the order sent, until fn returns false. obj must be a valid JSON
// object without leading space, as a part of a decoded document is: it is
// not checked again. The key's bytes are only valid during the call.
func EachMember(obj []byte, fn func(key []byte, value json.RawMessage) bool) {
	jsonscan.EachMember(obj, func(rawKey, value []byte) bool {
		key := rawKey[1 : len(rawKey)-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			key = []byte(unquote(rawKey))
		}
		return fn(key, value)
	})
}

// unquote decodes a valid JSON string literal.
func unquote(lit []byte) string {
	if bytes.IndexByte(lit, '\\') < 0 {
		return string(lit[1 : len(lit)-1])
	}
	var s string
	if json.Unmarshal(lit, &s) != nil {
		return string(lit)
	}
	return s
}
