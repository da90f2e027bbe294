package ruleform

import (
	"fmt"
	"strings"
	"time"
)

// zonedLayouts carry their own offset or Z (ISO 8601).
var zonedLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04Z07:00",
	"2006-01-02 15:04:05Z07:00",
}

// localLayouts have no zone: they are read as the user's local time.
var localLayouts = []string{
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04",
	time.DateTime,
	"2006-01-02 15:04",
	time.DateOnly,
}

// ParseTime reads the date forms the CLI accepts: ISO 8601 with a Z or an
// offset, ISO 8601 without one, "YYYY-MM-DD HH:MM:SS" and "YYYY-MM-DD"; the
// last three in loc. local reports that loc was used.
func ParseTime(s string, loc *time.Location) (t time.Time, local bool, err error) {
	s = strings.TrimSpace(s)
	for _, layout := range zonedLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, false, nil
		}
	}
	for _, layout := range localLayouts {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, true, nil
		}
	}
	return time.Time{}, false, fmt.Errorf("%q is not a date: use ISO 8601 (2026-10-01T09:00:00+02:00), YYYY-MM-DD HH:MM:SS or YYYY-MM-DD", s)
}

// apiTime is the form sent: UTC with a Z, which the contract names as
// accepted, so no server has to guess a zone.
func apiTime(t time.Time) string {
	return t.UTC().Format(time.RFC3339Nano)
}

// date checks one date field; required fields report a blank value.
func (c *checker) date(field, label, value string, required bool, loc *time.Location, notes *[]string) (time.Time, bool) {
	if c.shape(field) {
		return time.Time{}, false
	}
	if strings.TrimSpace(value) == "" {
		if required {
			c.add(field, "The "+label+" field is required.")
		}
		return time.Time{}, false
	}
	t, local, err := ParseTime(value, loc)
	if err != nil {
		c.add(field, "The "+label+" is not a valid date.")
		return time.Time{}, false
	}
	if local {
		c.localDates = true
		*notes = append(*notes, fmt.Sprintf("%s %q is local time (%s, UTC%s): sent as %s",
			field, strings.TrimSpace(value), loc, t.Format("-07:00"), apiTime(t)))
	} else if _, offset := t.Zone(); offset != 0 {
		*notes = append(*notes, fmt.Sprintf("%s %q sent in UTC as %s", field, strings.TrimSpace(value), apiTime(t)))
	}
	return t, true
}
