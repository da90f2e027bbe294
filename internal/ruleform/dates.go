package ruleform

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
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
}

// DateForms lists the forms ParseTime reads, for messages that refuse a
// date.
const DateForms = `YYYY-MM-DD, "YYYY-MM-DD HH:MM[:SS]" (both in your time zone) or ISO 8601 with a zone (2026-10-01T09:00:00+02:00 or 2026-10-01T07:00:00Z)`

// readTime is a date as read: the instant, whether it was read in the
// user's zone (it named none), and whether it was a day without a time.
type readTime struct {
	t        time.Time
	local    bool
	dateOnly bool
}

func parseTime(s string, loc *time.Location) (readTime, error) {
	s = strings.TrimSpace(s)
	for _, layout := range zonedLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return readTime{t: t}, nil
		}
	}
	for _, layout := range localLayouts {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return readTime{t: t, local: true}, nil
		}
	}
	if t, err := time.ParseInLocation(time.DateOnly, s, loc); err == nil {
		return readTime{t: t, local: true, dateOnly: true}, nil
	}
	return readTime{}, fmt.Errorf("%q is not a date: use %s%s", s, DateForms, ambiguity(s))
}

// ParseTime reads the date forms the CLI accepts: ISO 8601 with a Z or an
// offset, ISO 8601 without one, "YYYY-MM-DD HH:MM:SS" and "YYYY-MM-DD"; the
// last three in loc (a day alone is its first second). local reports that
// loc was used.
func ParseTime(s string, loc *time.Location) (t time.Time, local bool, err error) {
	rt, err := parseTime(s, loc)
	return rt.t, rt.local, err
}

// dayMonth matches the dates a spreadsheet writes in a country's own order
// (01/12/2026, 1.12.2026, 12-01-2026).
var dayMonth = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$`) })

// ambiguity helps with a date in a day/month order: it names the
// YYYY-MM-DD it must mean, or both when either order reads.
func ambiguity(s string) string {
	m := dayMonth().FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return ""
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	iso := func(month, day int) string { return fmt.Sprintf("%s-%02d-%02d", m[3], month, day) }
	switch {
	case a == 0 || b == 0 || a > 12 && b > 12:
		return ""
	case a > 12:
		return "; write it as " + iso(b, a)
	case b > 12 || a == b:
		return "; write it as " + iso(a, b)
	}
	return fmt.Sprintf("; %s could be %s or %s: write the one you mean", strings.TrimSpace(s), iso(b, a), iso(a, b))
}

// apiTime is the form sent: UTC with a Z, which the contract names as
// accepted, so no server has to guess a zone.
func apiTime(t time.Time) string {
	return t.UTC().Format(time.RFC3339Nano)
}

// dateField is one date of a rule to check: the start, or the end, which,
// given as a day without a time, runs to the end of that day.
type dateField struct {
	field, label string
	required     bool
	endOfDay     bool
}

// date checks one date field; required fields report a blank value. A
// date it cannot read is refused naming where it came from, repeating it
// and listing the forms accepted, after the server's own words.
func (c *checker) date(f dateField, value string, loc *time.Location, notes *[]string) (time.Time, bool) {
	if c.shape(f.field) {
		return time.Time{}, false
	}
	if strings.TrimSpace(value) == "" {
		if f.required {
			c.add(f.field, "The "+f.label+" field is required.")
		}
		return time.Time{}, false
	}
	rt, err := parseTime(value, loc)
	if err != nil {
		c.add(f.field, fmt.Sprintf("The %s is not a valid date: %s %q; use %s%s", f.label, c.in.nameOf(f.field),
			strings.TrimSpace(value), DateForms, ambiguity(value)))
		return time.Time{}, false
	}
	if rt.dateOnly && f.endOfDay {
		y, m, d := rt.t.Date()
		rt.t = time.Date(y, m, d, 23, 59, 59, 0, loc)
		c.endOfDay = true
	}
	c.localDates = c.localDates || rt.local
	*notes = append(*notes, dateNote(f, strings.TrimSpace(value), rt, loc))
	return rt.t, true
}

// dateNote tells how a date was read, as the instant in the user's zone
// (zone named) and as sent.
func dateNote(f dateField, value string, rt readTime, loc *time.Location) string {
	shown := rt.t.In(loc).Format("2006-01-02 15:04 MST")
	switch {
	case rt.dateOnly && f.endOfDay:
		shown = "the end of that day, " + rt.t.In(loc).Format("2006-01-02 15:04:05 MST")
	case rt.local:
		shown += " (your time zone)"
	}
	return fmt.Sprintf("%s %q is %s: sent as %s", f.field, value, shown, apiTime(rt.t))
}
