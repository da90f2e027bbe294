// Package flex decodes the fields the contract allows in more than one JSON
// form ("integer or string", "0 or datetime", "boolean or integer"). Each
// type accepts every allowed form and keeps the exact value: ids are kept as
// their digits so ids beyond 2^53 survive.
package flex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ID is a numeric id sent as a JSON integer or a string of digits.
type ID string

func (id *ID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*id = ""
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*id = ID(strings.TrimSpace(s))
		return nil
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("id: want an integer or a string, got %.40s", b)
		}
		*id = ID(n.String())
		return nil
	}
}

func (id ID) String() string { return string(id) }

// Int is an integer sent as a number or a numeric string; null is 0 with
// Valid false.
type Int struct {
	Value int64
	Valid bool
}

func (i *Int) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	*i = Int{}
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if strings.TrimSpace(s) == "" {
			return nil
		}
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return fmt.Errorf("want an integer, got %.40s", b)
	}
	if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
		*i = Int{Value: n, Valid: true}
		return nil
	}
	*i = Int{Value: int64(f), Valid: true}
	return nil
}

// Ptr returns nil for null, for display code that treats "unlimited" apart.
func (i Int) Ptr() *int64 {
	if !i.Valid {
		return nil
	}
	return &i.Value
}

// Bool is a boolean sent as true/false, 0/1 or "0"/"1".
type Bool struct {
	Value bool
	Valid bool
}

func (v *Bool) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	*v = Bool{}
	s := strings.Trim(string(b), `"`)
	switch strings.ToLower(s) {
	case "null", "":
		return nil
	case "true", "1":
		*v = Bool{Value: true, Valid: true}
	case "false", "0":
		*v = Bool{Value: false, Valid: true}
	default:
		return fmt.Errorf("want a boolean or 0/1, got %.40s", b)
	}
	return nil
}

// ZeroOrTime is 0 (never happened) or a datetime string, as `opened` and
// `clicked` are sent. The time is kept as the server's text.
type ZeroOrTime struct {
	Time string // "" when 0 or null
}

func (z *ZeroOrTime) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	*z = ZeroOrTime{}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if s != "0" {
			z.Time = s
		}
		return nil
	}
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("want 0 or a datetime, got %.40s", b)
	}
	if n.String() != "0" {
		z.Time = n.String()
	}
	return nil
}

// Happened reports whether the event took place.
func (z ZeroOrTime) Happened() bool { return z.Time != "" }
