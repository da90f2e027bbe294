package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// maxBody caps a request body; the API's bodies are small.
const maxBody = 1 << 20

// apiError is a failure a handler answers with; returned from a Store update
// it also discards the update.
type apiError struct {
	status int
	body   object
}

func (e *apiError) Error() string { return fmt.Sprintf("HTTP %d: %v", e.status, e.body) }

// failure is the common {success:false, message} answer.
func failure(status int, message string) *apiError {
	return &apiError{status: status, body: object{{"success", false}, {"message", message}}}
}

// writeError answers with err: an apiError as it is, anything else (the
// state file could not be read or written) as a 500 whose message says what
// to do.
func writeError(w http.ResponseWriter, err error) {
	var apiErr *apiError
	if errors.As(err, &apiErr) {
		writeJSON(w, apiErr.status, apiErr.body)
		return
	}
	writeFailure(w, http.StatusInternalServerError, err.Error())
}

// readBody reads the request body, answering 413 when it is too large.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	if r.Body == nil {
		return nil, true
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		writeFailure(w, http.StatusBadRequest, "The request body could not be read: "+err.Error())
		return nil, false
	}
	if len(body) > maxBody {
		writeFailure(w, http.StatusRequestEntityTooLarge, "The request body is larger than 1 MiB.")
		return nil, false
	}
	return body, true
}

// members is a JSON object's members in the order they were sent.
type members []member

type member struct {
	key   string
	value json.RawMessage
}

// get returns the value of key.
func (m members) get(key string) (json.RawMessage, bool) {
	for i := range m {
		if m[i].key == key {
			return m[i].value, true
		}
	}
	return nil, false
}

// object returns the members for encoding, in their order.
func (m members) object() object {
	obj := make(object, len(m))
	for i, mem := range m {
		obj[i] = field{mem.key, mem.value}
	}
	return obj
}

// parseObject decodes a JSON object keeping its members' order; ok is false
// when data is not a JSON object. Like PHP's json_decode, a later duplicate
// key replaces an earlier one in place.
func parseObject(data []byte) (m members, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	m = members{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, _ := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, false
		}
		m = m.set(key, value)
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return m, true
}

func (m members) set(key string, value json.RawMessage) members {
	for i := range m {
		if m[i].key == key {
			m[i].value = value
			return m
		}
	}
	return append(m, member{key, value})
}

// kind names the JSON type of a raw value: "null", "string", "number",
// "bool", "array" or "object"; "" for an absent value.
func kind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case 'n':
		return "null"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case '[':
		return "array"
	case '{':
		return "object"
	}
	return "number"
}

// stringValue returns a JSON string's value.
func stringValue(raw json.RawMessage) (string, bool) {
	var s string
	if kind(raw) != "string" || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// isBlank reports whether a value counts as not given, the way Laravel's
// required rule sees it: absent, null, a blank string or an empty array.
func isBlank(raw json.RawMessage) bool {
	switch kind(raw) {
	case "", "null":
		return true
	case "string":
		s, _ := stringValue(raw)
		return strings.TrimSpace(s) == ""
	case "array":
		var items []json.RawMessage
		return json.Unmarshal(raw, &items) == nil && len(items) == 0
	}
	return false
}

// intValue reads an integer sent as a JSON number or a numeric string, as
// Laravel's integer rule accepts both.
func intValue(raw json.RawMessage) (int64, bool) {
	text := string(bytes.TrimSpace(raw))
	switch kind(raw) {
	case "string":
		text, _ = stringValue(raw)
		text = strings.TrimSpace(text)
	case "number":
	default:
		return 0, false
	}
	n, err := strconv.ParseInt(text, 10, 64)
	return n, err == nil
}
