package output

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/xlsx"
)

// CellKind is what a column's values are, for a format whose cells have
// types (xlsx); the text formats ignore it. Types come from the API's
// contract and the JSON, never from what a string looks like: "00123" in a
// text field stays text, however much it looks like a number.
type CellKind uint8

// The kinds of column.
const (
	// KindAuto: a key the contract types everywhere by its name (see
	// kindOfKey), else the JSON value's own type: a string is text, a
	// number a number (text when a spreadsheet could not hold its digits
	// exactly), true/false a boolean, null an empty cell.
	KindAuto CellKind = iota
	// KindText: ids, phones, SKUs, codes: text, digits exact.
	KindText
	// KindNumber: counts and amounts.
	KindNumber
	// KindBool: true/false, or the API's 1/0 flags.
	KindBool
	// KindTime: an instant (ISO 8601 with Z or an offset), shown as a
	// date-time in the user's zone, which the header names.
	KindTime
	// KindShopTime: the shop's own zone-less "YYYY-MM-DD HH:MM:SS" (offer
	// dates, e-mail opens and clicks), shown as it reads, "(shop time)" in
	// the header; the API's 0 for "never" is an empty cell.
	KindShopTime
)

// kindOfKey types the keys whose type the API contract gives wherever they
// appear: ids of any size are text, created_at and updated_at instants.
func kindOfKey(key string) CellKind {
	switch {
	case key == "id" || strings.HasSuffix(key, "_id") || strings.HasSuffix(key, "_ids"):
		return KindText
	case key == "created_at" || key == "updated_at" || key == "last_sent":
		return KindTime
	case key == "opened" || key == "clicked":
		return KindShopTime
	}
	return KindAuto
}

// kind is the column's declared kind, else the one its key has.
func (c Column) kind() CellKind {
	if c.Kind != KindAuto {
		return c.Kind
	}
	return kindOfKey(c.Key)
}

// sheetHeader is the column's header in a workbook: its key, as in CSV,
// with the zone its times are shown in.
func (c Column) sheetHeader(zone string) string {
	switch c.kind() {
	case KindTime:
		return c.Key + " (" + zone + ")"
	case KindShopTime:
		return c.Key + " (shop time)"
	}
	return c.Key
}

// cellValue is what a column holds for o, for typing: the raw JSON value
// at its key, or (a column computed by Data or Value) its text as a JSON
// string.
func (c Column) cellValue(o Object) json.RawMessage {
	if c.Data == nil {
		if v, ok := o.Get(c.Key); ok {
			return v
		}
		if c.Value == nil {
			return nil
		}
	}
	b, _ := json.Marshal(c.data(o)) // a string: cannot fail
	return b
}

// sheetCell types the column's value for o; text goes through clean (the
// rule every cell's text obeys).
func (c Column) sheetCell(o Object, loc *time.Location, clean func(string) string) xlsx.Cell {
	if c.sheet != nil {
		return c.sheet(o, loc, clean)
	}
	v := c.cellValue(o)
	if len(v) == 0 || v[0] == 'n' {
		return xlsx.Cell{}
	}
	text := func() xlsx.Cell {
		if s := displayText(v); s != "" {
			return xlsx.TextCell(clean(s))
		}
		return xlsx.Cell{}
	}
	switch c.kind() {
	case KindText:
		return text()
	case KindNumber:
		return numberCell(v, text)
	case KindBool:
		return boolCell(v, text)
	case KindTime:
		return timeCell(v, loc, text)
	case KindShopTime:
		return shopTimeCell(v, text)
	}
	return autoCell(v, text)
}

// autoCell types a value by its JSON type.
func autoCell(v json.RawMessage, text func() xlsx.Cell) xlsx.Cell {
	switch v[0] {
	case '"', '{', '[':
		return text()
	case 't', 'f':
		return xlsx.BoolCell(v[0] == 't')
	}
	return xlsx.NumberCell(string(v))
}

// numberCell is a number, whether the JSON sent it as one or (as the API
// may for a count) as a string of one; anything else stays text.
func numberCell(v json.RawMessage, text func() xlsx.Cell) xlsx.Cell {
	lit := string(v)
	if v[0] == '"' {
		lit = unquote(v)
	}
	if c := xlsx.NumberCell(lit); c.Kind == xlsx.Number && json.Valid([]byte(lit)) {
		return c
	}
	return text()
}

func boolCell(v json.RawMessage, text func() xlsx.Cell) xlsx.Cell {
	switch string(v) {
	case "true", "1":
		return xlsx.BoolCell(true)
	case "false", "0":
		return xlsx.BoolCell(false)
	}
	return text()
}

func timeCell(v json.RawMessage, loc *time.Location, text func() xlsx.Cell) xlsx.Cell {
	if v[0] != '"' {
		return text()
	}
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(unquote(v)))
	if err != nil {
		return text()
	}
	return xlsx.TimeCell(t.In(loc))
}

func shopTimeCell(v json.RawMessage, text func() xlsx.Cell) xlsx.Cell {
	s := displayText(v)
	if s == "0" || strings.TrimSpace(s) == "" {
		return xlsx.Cell{} // never opened, never clicked
	}
	t, err := time.Parse(time.DateTime, strings.TrimSpace(s))
	if err != nil {
		return text()
	}
	return xlsx.TimeCell(t)
}
