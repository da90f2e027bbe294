package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/storectl/storectl/internal/output"
)

// Meta names what a rendering shows: the store and when it was made.
type Meta struct {
	Store string // profile and base URL, as the user knows the store
	Made  time.Time
	Loc   *time.Location
	// Command is what made the report (the page names it), and Help what
	// says what each number means.
	Command, Help string
}

// WriteText renders the report for a terminal width cells wide (0: 80):
// the summary, sparklines of the periods, bars of the products, the
// locales and the notes. Server strings are sanitised.
func WriteText(w io.Writer, r *Report, m Meta, width int) error {
	if width <= 0 {
		width = 80
	}
	t := &textWriter{w: w, width: width}
	t.header(r, m)
	t.summary(r)
	t.periods(r)
	t.products(r)
	t.locales(r)
	for _, n := range r.Notes {
		t.line("note: " + n)
	}
	return t.err
}

type textWriter struct {
	w     io.Writer
	width int
	err   error
}

func (t *textWriter) line(s string) {
	if t.err == nil {
		_, t.err = io.WriteString(t.w, s+"\n")
	}
}

func (t *textWriter) header(r *Report, m Meta) {
	asOf := "never synced"
	if r.AsOf != nil {
		asOf = "mirror as of " + output.Ago(*r.AsOf, m.Made)
	}
	from := "the first submission"
	if r.Range.Since != nil {
		from = r.Range.Since.In(m.Loc).Format(time.DateOnly)
	}
	t.line(fmt.Sprintf("Back in stock · %s · %s to %s, by %s · %s", output.Sanitize(m.Store), from,
		r.Range.Until.In(m.Loc).Format(time.DateOnly), r.Range.By, asOf))
	t.line("")
}

func (t *textWriter) summary(r *Report) {
	s := r.Summary
	t.line("SUMMARY (submissions created in the range)")
	t.line(fmt.Sprintf("  signups %s · pending now %s · sent %s · unsubscribed %s", output.Grouped(s.Signups),
		output.Grouped(s.Pending), output.Grouped(s.Sent), count(s.Unsubscribed)))
	if s.Opened == nil {
		// Unknown until details exist: the note says so, once.
		t.line("  opened — · clicked —")
	} else {
		cover := fmt.Sprintf("of %s sent with their detail", output.Grouped(s.DetailedSent))
		if s.Coverage != nil && *s.Coverage < 1 {
			cover += fmt.Sprintf(", %s of the sent", percent(s.Coverage))
		}
		t.line(fmt.Sprintf("  opened %s (%s) · clicked %s (%s), %s", count(s.Opened), percent(s.OpenRate),
			count(s.Clicked), percent(s.ClickRate), cover))
	}
	t.line("  time to notify  " + quantText(s.TimeToNotifyHours.Median, s.TimeToNotifyHours.P90, nil))
	t.line("  time to click   " + quantText(s.TimeToClickHours.Median, s.TimeToClickHours.P90, nil))
	t.line("  waitlist age    " + quantText(s.WaitlistAgeHours.Median, s.WaitlistAgeHours.P90, s.WaitlistAgeHours.Max))
	t.line("")
}

func quantText(median, p90, most *float64) string {
	if median == nil {
		return "—"
	}
	s := "median " + hours(*median) + " · p90 " + hours(*p90)
	if most != nil {
		s += " · max " + hours(*most)
	}
	return s
}

// hours writes a duration in hours as a person reads it: 45 min, 7.4 h,
// 12 d.
func hours(h float64) string {
	switch {
	case h < 1:
		return fmt.Sprintf("%.0f min", h*60)
	case h < 48:
		return fmt.Sprintf("%.1f h", h)
	}
	return fmt.Sprintf("%.1f d", h/24)
}

// count is a count a person reads, "—" when it is not known.
func count(n *int) string {
	if n == nil {
		return "—"
	}
	return output.Grouped(*n)
}

func percent(r *float64) string {
	if r == nil {
		return "—"
	}
	return fmt.Sprintf("%.0f%%", *r*100)
}

// periods draws a sparkline per series over the latest periods that fit.
func (t *textWriter) periods(r *Report) {
	if len(r.Periods) == 0 {
		return
	}
	const label = 10
	n := min(len(r.Periods), max(t.width-label-14, 8))
	shown := r.Periods[len(r.Periods)-n:]
	t.line(fmt.Sprintf("BY %s (%s to %s)", strings.ToUpper(string(r.Range.By)), shown[0].Start, shown[len(shown)-1].Start))
	signups := func(p Periodic) *int { return &p.Signups }
	for _, s := range []struct {
		name string
		get  func(Periodic) *int
	}{{"signups", signups}, {"sent", func(p Periodic) *int { return p.Sent }},
		{"opened", func(p Periodic) *int { return p.Opened }}, {"clicked", func(p Periodic) *int { return p.Clicked }}} {
		if s.get(shown[0]) == nil {
			t.line(fmt.Sprintf("  %-*s—", label-2, s.name)) // unknown: the note says why
			continue
		}
		values := make([]int, len(shown))
		for i, p := range shown {
			values[i] = *s.get(p)
		}
		spark, most := sparkline(values)
		t.line(fmt.Sprintf("  %-*s%s  max %d", label-2, s.name, spark, most))
	}
	t.line("")
}

var sparks = []rune("▁▂▃▄▅▆▇█")

// sparkline draws values scaled to the largest; a zero is a space.
func sparkline(values []int) (string, int) {
	most := 0
	for _, v := range values {
		most = max(most, v)
	}
	var b strings.Builder
	for _, v := range values {
		if v == 0 || most == 0 {
			b.WriteRune(' ')
			continue
		}
		b.WriteRune(sparks[min(len(sparks)-1, int(math.Ceil(float64(v)/float64(most)*float64(len(sparks))))-1)])
	}
	return b.String(), most
}

// products draws the first products with a bar of their pending
// requests, fitted to the width.
func (t *textWriter) products(r *Report) {
	if len(r.Products) == 0 {
		return
	}
	const top = 10
	// The name and the bar share what the numbers leave of the width.
	barW := max(4, min(20, t.width-48-32))
	nameW := max(12, min(40, t.width-48-barW))
	t.line(fmt.Sprintf("  %-*s %7s %3s %4s %5s  %-6s %5s %6s", nameW, "PRODUCT (most pending first)", "PENDING", "7D", "28D", "/DAY", "TREND", "OPEN", "CLICK"))
	most := r.Products[0].Pending
	for _, p := range r.Products[:min(top, len(r.Products))] {
		name := output.Sanitize(p.ProductTitle)
		if p.VariantTitle != nil {
			name += " / " + output.Sanitize(*p.VariantTitle)
		}
		t.line(fmt.Sprintf("  %-*s %7d %3d %4d %5.2f  %-6s %5s %6s  %s", nameW, cut(name, nameW), p.Pending, p.Signups7d, p.Signups28d,
			p.Velocity, trendText(p.Trend), percent(p.OpenRate), percent(p.ClickRate), bar(p.Pending, most, barW)))
	}
	if len(r.Products) > top {
		t.line(fmt.Sprintf("  … %d more (-o json lists them all)", len(r.Products)-top))
	}
	t.line("")
}

// trendText is the last 7 days against the 28-day rate: ↑ +40%.
func trendText(tr *float64) string {
	if tr == nil {
		return "—"
	}
	d := (*tr - 1) * 100
	switch {
	case d >= 10:
		return fmt.Sprintf("↑%+.0f%%", d)
	case d <= -10:
		return fmt.Sprintf("↓%+.0f%%", d)
	}
	return "→"
}

func bar(n, most, width int) string {
	if most <= 0 || n <= 0 {
		return ""
	}
	return strings.Repeat("█", max(1, n*width/most))
}

// cut shortens s to n cells (runes), marking the cut.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

func (t *textWriter) locales(r *Report) {
	if len(r.Locales) == 0 {
		return
	}
	var parts []string
	for _, l := range r.Locales {
		parts = append(parts, fmt.Sprintf("%s %s", output.Sanitize(l.Locale), output.Grouped(l.Count)))
	}
	t.line("LOCALES (of the detailed submissions)")
	line := " "
	for _, part := range parts {
		if utf8.RuneCountInString(line)+3+utf8.RuneCountInString(part) > t.width && line != " " {
			t.line(line)
			line = " "
		}
		line += " " + part + " ·"
	}
	t.line(strings.TrimSuffix(line, " ·"))
	t.line("")
}
