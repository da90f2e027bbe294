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
