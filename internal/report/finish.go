package report

import (
	"fmt"
	"time"
)

// finish computes the summary's rates and says what limits the numbers.
func (b *builder) finish() {
	s := &b.r.Summary
	s.OpenRate, s.ClickRate, s.Coverage = rate(s.Opened, s.DetailedSent), rate(s.Clicked, s.DetailedSent), rate(s.DetailedSent, s.Sent)
	o := b.opts
	b.r.Range = Range{Until: o.end(), By: o.By, Zone: zoneName(o.Loc, o.end()), ShopZone: zoneName(o.ShopZone, o.end())}
	if !o.Since.IsZero() {
		since := o.Since
		b.r.Range.Since = &since
	}
	switch {
	case s.Sent > 0 && s.DetailedSent == 0:
		b.note("no sent submission of the range has its detail yet: opens, clicks and their rates are unknown; `storectl mirror sync bis --details` fetches them")
	case s.DetailedSent < s.Sent:
		b.note(fmt.Sprintf("opens, clicks and their rates cover the %d of %d sent submissions that have their detail (%.0f%%), not the whole store; `storectl mirror sync bis --details` fetches more",
			s.DetailedSent, s.Sent, *s.Coverage*100))
	}
	if !o.ShopZoneSet && s.Opened+s.Clicked > 0 {
		b.note("opened and clicked times are in the shop's time zone, which the API does not name: read as UTC; set it with `storectl config set shop_timezone ZONE` (such as Europe/Paris or -07:00) for exact times to click")
	}
	if f := b.r.LastFullPass; f != nil && o.Now.Sub(*f) > staleFullPass {
		b.note(fmt.Sprintf("the last full pass read the list %s ago (%s): sends of older submissions since then are not in these numbers (an incremental sync reads only the newest pages); `storectl mirror sync bis --full` reads them",
			wholeDays(o.Now.Sub(*f)), f.In(o.Loc).Format(time.DateOnly)))
	}
	if b.clickBeforeSend > 0 {
		b.note(fmt.Sprintf("%d clicks read earlier than their e-mail and are left out of the time to click: is shop_timezone (%s) the shop's zone?",
			b.clickBeforeSend, b.r.Range.ShopZone))
	}
}

// staleFullPass is how old the last full pass may be before the report
// says the sends of older submissions may be missing: a week, the longest
// docs/report.md suggests between full passes.
const staleFullPass = 7 * 24 * time.Hour

func wholeDays(d time.Duration) string { return fmt.Sprintf("%d days", int(d.Hours()/24)) }

func (b *builder) note(s string) { b.r.Notes = append(b.r.Notes, s) }

// zoneName names a zone for people: its name, or for the local zone its
// abbreviation at t.
func zoneName(loc *time.Location, t time.Time) string {
	if name := loc.String(); name != "Local" && name != "" {
		return name
	}
	return t.In(loc).Format("MST")
}
