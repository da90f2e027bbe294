package output

import (
	"strconv"
	"strings"
	"time"
)

// noValue is what a person sees for a value that is not there.
const noValue = "—"

// HumanTime is the one way a date and time is shown to a person, in any
// view of any command: in loc, to the minute, naming its zone
// ("2026-11-15 17:18 UTC"). The API's ISO 8601 (with Z or an offset) is
// converted to loc. Its zone-less "YYYY-MM-DD HH:MM:SS" (pre-order offers,
// e-mail events) is the shop's own time, whose zone the API does not name:
// it is shown as "2026-03-01 00:00 shop time". A date alone stays a date,
// "" is "—", and anything else is shown as sent. Machine formats (json,
// ndjson, csv, yaml) never use it: they keep the server's values.
func HumanTime(s string, loc *time.Location) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return noValue
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.In(loc).Format("2006-01-02 15:04 MST")
	}
	if t, err := time.Parse(time.DateTime, s); err == nil {
		return t.Format("2006-01-02 15:04") + " shop time"
	}
	return s
}

// spreadsheetTimeKeys are the date fields CSV writes as SpreadsheetTime:
// the submission's and the rule's timestamps and e-mail events. A rule's
// start_date and end_date are not among them: a listing's CSV must read
// back into comingsoon create, which takes a zone-less time as local time.
var spreadsheetTimeKeys = map[string]bool{"created_at": true, "updated_at": true, "last_sent": true, "opened": true, "clicked": true}

// spreadsheetLayout is ISO 8601 without a zone or a fraction of a second:
// the one form LibreOffice reads as a date-time with its default CSV
// import (which takes "2026-11-15 17:18:27", a zone or microseconds as
// text), as Google Sheets and the mailing tools' importers do.
const spreadsheetLayout = "2006-01-02T15:04:05"

// SpreadsheetTime is a date-time as CSV writes it (spreadsheetLayout): an
// instant (ISO 8601 with Z or an offset) in UTC, to the second; the API's
// zone-less shop time (opened, clicked) in its own time; the API's 0 for
// "never" an empty cell; anything else as sent.
func SpreadsheetTime(s string) string {
	s = strings.TrimSpace(s)
	if s == "0" {
		return ""
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC().Format(spreadsheetLayout)
	}
	if t, err := time.Parse(time.DateTime, s); err == nil {
		return t.Format(spreadsheetLayout)
	}
	return s
}

// HumanTimeColumn is a column showing the datetime at key as HumanTime.
func HumanTimeColumn(key, header string, loc *time.Location) Column {
	return Column{Key: key, Header: header, Value: func(o Object) string { return HumanTime(o.String(key), loc) }}
}

// ZoneName names loc for a person: its IANA name, or, for the process's
// local zone (which Go calls "Local", whatever TZ says), its abbreviation
// at t, as HumanTime shows it ("CET", "UTC").
func ZoneName(loc *time.Location, t time.Time) string {
	if loc != time.Local && loc.String() != "Local" {
		return loc.String()
	}
	return t.In(loc).Format("MST")
}

// Ago says how old data from t is, for a person: "3m ago (2026-11-25 10:02
// UTC)"; "never" for the zero time.
func Ago(t, now time.Time) string {
	if t.IsZero() {
		return "never"
	}
	d := now.Sub(t)
	var rel string
	switch {
	case d < time.Minute:
		rel = "just now"
	case d < time.Hour:
		rel = strconv.Itoa(int(d/time.Minute)) + "m ago"
	case d < 48*time.Hour:
		rel = strconv.Itoa(int(d/time.Hour)) + "h ago"
	default:
		rel = strconv.Itoa(int(d/(24*time.Hour))) + " days ago"
	}
	return rel + " (" + t.In(time.Local).Format("2006-01-02 15:04 MST") + ")"
}
