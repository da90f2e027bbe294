package report

import (
	"fmt"
	"strings"
	"time"
)

// finish computes the summary's rates, makes unknown what no detail tells
// yet, and says what limits the numbers.
func (b *builder) finish() {
	s := &b.r.Summary
	o := b.opts
	s.OpenRate, s.ClickRate, s.Coverage = rate(s.opened, s.DetailedSent), rate(s.clicked, s.DetailedSent), rate(s.DetailedSent, s.Sent)
	b.r.Range = Range{Until: o.end(), By: o.By, Zone: zoneName(o.Loc, o.end()), ShopZone: zoneName(o.ShopZone, o.end())}
	if !o.Since.IsZero() {
		since := o.Since
		b.r.Range.Since = &since
	}
	b.r.unmatched = b.filtered() && b.first == ""
	var unknown []string
	if s.Signups == 0 || s.Detailed > 0 {
		s.Unsubscribed = &s.unsubscribed
	} else {
		unknown = append(unknown, "unsubscribes")
	}
	// The periods' sends are known from the sent submissions' details (of
	// any date); with none, only a range holding every submission, none of
	// them sent, knows there were none.
	sendsKnown := b.detailedSends > 0 || s.Sent == 0 && o.Since.IsZero()
	for i := range b.r.Periods {
		if p := &b.r.Periods[i]; sendsKnown {
			p.Sent, p.Opened, p.Clicked = &p.sent, &p.opened, &p.clicked
		}
	}
	if !sendsKnown {
		unknown = append(unknown, "sends by "+string(o.By))
	}
	if s.Sent == 0 || s.DetailedSent > 0 {
		s.Opened, s.Clicked = &s.opened, &s.clicked
	} else {
		unknown = append(unknown, "opens, clicks and their rates")
	}
	switch {
	case len(unknown) > 0:
		whose := "no sent submission of the range"
		switch {
		case s.Detailed == 0:
			whose = "no submission of the range"
		case len(unknown) == 1 && !sendsKnown:
			whose = "no sent submission" // the range's own have none sent
		}
		b.note(fmt.Sprintf("%s has its detail yet: %s are unknown (— here, null in -o json)", whose, listed(unknown)) +
			remedy(o.Remedies.FetchDetails, "fetches them"))
	case s.DetailedSent < s.Sent:
		b.note(fmt.Sprintf("sends by %s, opens, clicks and their rates cover the %d of %d sent submissions that have their detail, not the whole store",
			o.By, s.DetailedSent, s.Sent) + remedy(o.Remedies.FetchDetails, "fetches more"))
	}
	if !o.ShopZoneSet && s.opened+s.clicked > 0 {
		note := "opened and clicked times are in the shop's time zone, which the API does not name: read as UTC"
		if z := o.Remedies.SetShopZone; z != "" {
			note += "; set it with " + z + " (such as Europe/Paris or -07:00) for exact times to click"
		}
		b.note(note)
	}
	if f := b.r.LastFullPass; f != nil && o.Now.Sub(*f) > staleFullPass {
		b.note(fmt.Sprintf("the last full pass read the list %s ago (%s): sends of older submissions since then are not in these numbers (an incremental sync reads only the newest pages)",
			wholeDays(o.Now.Sub(*f)), f.In(o.Loc).Format(time.DateOnly)) + remedy(o.Remedies.FullPass, "reads them"))
	}
	if b.clickBeforeSend > 0 {
		b.note(fmt.Sprintf("%d clicks read earlier than their e-mail and are left out of the time to click: is shop_timezone (%s) the shop's zone?",
			b.clickBeforeSend, b.r.Range.ShopZone))
	}
}

// remedy is "; DOES what" after a note when the command named what does
// it, else nothing.
func remedy(does, what string) string {
	if does == "" {
		return ""
	}
	return "; " + does + " " + what
}

// filtered says the report is kept to a product, a variant or a SKU.
func (b *builder) filtered() bool {
	return b.opts.ProductID != 0 || b.opts.VariantID != 0 || b.opts.SKU != ""
}

// listed joins phrases as a sentence does: "a, b and c".
func listed(parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
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
