package preorder

import (
	"strings"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
)

// clock is the moment offers are judged at: now, and the zone their
// zone-less shop times are read in (the profile's shop_timezone, UTC when
// it is not set).
type clock struct {
	now  time.Time
	zone *time.Location
}

// clockOf is the clock at now for the profile's settings.
func clockOf(settings func() (*config.Settings, error), now time.Time) (clock, error) {
	s, err := settings()
	if err != nil {
		return clock{}, err
	}
	zone, _, err := cmdutil.ShopZone(s)
	return clock{now: now, zone: zone}, err
}

// at reads an offer's date: the shop's zone-less "YYYY-MM-DD HH:MM:SS" (a
// date alone is its midnight) in the shop's zone, ISO 8601 as the instant
// it names.
func (c clock) at(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, true
	}
	for _, layout := range []string{time.DateTime, time.DateOnly} {
		if t, err := time.ParseInLocation(layout, s, c.zone); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// The states of an offer at a moment.
const (
	stateActive   = "active"
	stateDraft    = "draft"
	stateUpcoming = "upcoming"
	stateEnded    = "ended"
)

// state is the offer's state now: ended once its end date is past,
// whatever its status; else draft (status 0), upcoming (before its start)
// or active; none when the offer has no status (its dates then still say
// ended).
func (c clock) state(o shop.Offer) string {
	if end, ok := c.at(o.EndDate); ok && !c.now.Before(end) {
		return stateEnded
	}
	switch {
	case !o.Status.Valid:
		return none
	case !o.Status.Value:
		return stateDraft
	}
	if start, ok := c.at(o.StartDate); ok && c.now.Before(start) {
		return stateUpcoming
	}
	return stateActive
}

// day is the date part of an offer's date as sent ("2026-12-01"), for
// a sentence.
func day(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= len(time.DateOnly) {
		return s[:len(time.DateOnly)]
	}
	return s
}
