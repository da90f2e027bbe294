package report

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/storectl/storectl/internal/sandbox"
)

func TestPeriodStarts(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, time.November, 25, 15, 0, 0, 0, time.UTC) // a Wednesday
	for _, tc := range []struct {
		by   Period
		loc  *time.Location
		want string
	}{
		{Day, time.UTC, "2026-11-25T00:00:00Z"},
		{Week, time.UTC, "2026-11-23T00:00:00Z"},
		{Month, time.UTC, "2026-11-01T00:00:00Z"},
		{Day, paris, "2026-11-25T00:00:00+01:00"},
		{Month, paris, "2026-11-01T00:00:00+01:00"},
	} {
		if got := tc.by.start(at, tc.loc).Format(time.RFC3339); got != tc.want {
			t.Errorf("%s in %s: %s, want %s", tc.by, tc.loc, got, tc.want)
		}
	}
	// The day the clocks go back lasts 25 hours: its last hour is still
	// that day, the next midnight the next one.
	ps := newPeriods(Day, paris, time.Date(2026, time.October, 24, 22, 0, 0, 0, time.UTC), time.Date(2026, time.October, 27, 0, 0, 0, 0, time.UTC))
	late := time.Date(2026, time.October, 25, 22, 30, 0, 0, time.UTC) // 23:30 in Paris
	if rows := ps.rows(); len(rows) != 3 || rows[ps.index(late)].Start != "2026-10-25" {
		t.Fatalf("periods %v; 23:30 on the 25th falls in %d", rows, ps.index(late))
	}
}

// The waitlist's quantiles come from a few ranks of the created_at order;
// they equal the quantiles of every age sorted.
func TestAgeQuantilesFromRanks(t *testing.T) {
	for n := 1; n <= 30; n++ {
		ages := make([]float64, n) // ages[k] ascending: created_at rank n-k
		byRank := map[int]float64{}
		for k := range ages {
			ages[k] = float64(k*k) + 0.5
			byRank[n-k] = ages[k]
		}
		got := ageQuantiles(n, byRank)
		for _, c := range []struct {
			p   float64
			got *float64
		}{{0.5, got.Median}, {0.9, got.P90}} {
			want, _ := quantile(ages, c.p)
			if c.got == nil || math.Abs(*c.got-want) > 1e-9 {
				t.Fatalf("n %d p %v: %v, want %v", n, c.p, c.got, want)
			}
		}
		if *got.Max != ages[n-1] {
			t.Fatalf("n %d: max %v", n, *got.Max)
		}
	}
}

// A range keeps the summary to the submissions created in it.
func TestRangeKeepsTheCohort(t *testing.T) {
	since, until := time.Date(2026, time.September, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, time.October, 1, 0, 0, 0, 0, time.UTC)
	r := demoReport(t, Options{Since: since, Until: until, By: Day})
	signups, pending := 0, 0
	for _, s := range sandbox.DemoState().Submissions {
		if !s.CreatedAt.Before(since) && s.CreatedAt.Before(until) {
			signups++
			if s.Status == 0 {
				pending++
			}
		}
	}
	if r.Summary.Signups != signups || r.Summary.Pending != pending || len(r.Periods) != 30 {
		t.Fatalf("summary %+v, %d periods; want %d signups, %d pending, 30 days", r.Summary, len(r.Periods), signups, pending)
	}
	sum := 0
	for _, p := range r.Periods {
		sum += p.Signups
	}
	if sum != signups {
		t.Fatalf("the periods hold %d signups, the range %d", sum, signups)
	}
}

// The terminal view fits the width it is given (notes wrap as text), and
// shows no escape sequence a product title carried.
func TestTextFitsTheWidth(t *testing.T) {
	r := demoReport(t, Options{})
	for _, width := range []int{80, 100, 160} {
		var b bytes.Buffer
		if err := WriteText(&b, r, Meta{Store: "demo", Made: demoNow, Loc: time.UTC}, width); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(line, "note:") || strings.HasPrefix(line, "Back in stock") {
				continue
			}
			if n := utf8.RuneCountInString(line); n > width {
				t.Errorf("width %d: a line of %d cells: %q", width, n, line)
			}
			if strings.ContainsAny(line, "\x1b\x07") {
				t.Errorf("an escape sequence reached the terminal: %q", line)
			}
		}
	}
}

// Server strings are text in the page, never markup or script.
func TestHTMLEscapesServerStrings(t *testing.T) {
	r := demoReport(t, Options{})
	r.Products[0].ProductTitle = `<script>alert(1)</script>"><img src=x onerror=alert(2)>`
	r.Locales = append(r.Locales, Locale{Locale: "<b>xx</b>", Count: 1})
	var b bytes.Buffer
	if err := WriteHTML(&b, r, Meta{Store: `<i>shop</i>`, Made: demoNow, Loc: time.UTC}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"<script", "<img", "<b>xx", "<i>shop", "\x1b"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
	if !strings.Contains(page, "&lt;script&gt;") {
		t.Error("the hostile title is not shown as text")
	}
}

// A report read more than a week after the last full pass says that sends
// of older submissions may be missing; one within the week says nothing.
func TestStaleFullPassIsNoted(t *testing.T) {
	db := demoMirror(t, 320)
	for _, tc := range []struct {
		after time.Duration
		noted bool
	}{{24 * time.Hour, false}, {8 * 24 * time.Hour, true}} {
		r, err := Build(context.Background(), db, Options{Now: demoNow.Add(tc.after), Loc: time.UTC,
			Remedies: Remedies{FullPass: "`storectl mirror sync bis --full`"}})
		if err != nil {
			t.Fatal(err)
		}
		if r.LastFullPass == nil || !r.LastFullPass.Equal(demoNow) {
			t.Fatalf("last_full_pass %v, want %v", r.LastFullPass, demoNow)
		}
		noted := slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, "mirror sync bis --full") })
		if noted != tc.noted {
			t.Errorf("%v after the full pass: noted %v, want %v (%q)", tc.after, noted, tc.noted, r.Notes)
		}
	}
}

// What no detail tells yet is unknown, never 0 (issue 37): without any
// detail, unsubscribes, the sends, opens and clicks of every period, and
// the opens, clicks and rates of the summary are null in JSON and "—" on
// the terminal and the page, and one note says why.
func TestUnknownUntilDetailsExist(t *testing.T) {
	db := demoMirrorDetails(t, 320, false)
	r, err := Build(context.Background(), db, Options{Now: demoNow, Loc: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	s := r.Summary
	if s.Sent == 0 || s.Unsubscribed != nil || s.Opened != nil || s.Clicked != nil || s.OpenRate != nil || s.ClickRate != nil {
		t.Fatalf("summary %+v: want unsubscribed, opened, clicked and rates unknown", s)
	}
	for _, p := range r.Periods {
		if p.Sent != nil || p.Opened != nil || p.Clicked != nil {
			t.Fatalf("period %s: sent %v opened %v clicked %v, want unknown", p.Start, p.Sent, p.Opened, p.Clicked)
		}
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"unsubscribed":null`, `"opened":null`, `"open_rate":null`, `"sent":null,"opened":null,"clicked":null`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("JSON has no %s", want)
		}
	}
	if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "no submission of the range has its detail yet: unsubscribes, sends by week and opens, clicks and their rates are unknown") {
		t.Errorf("notes %q: want one saying what is unknown", r.Notes)
	}
	var text bytes.Buffer
	if err := WriteText(&text, r, Meta{Store: "demo", Made: demoNow, Loc: time.UTC}, 100); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sent 63 · unsubscribed —\n", "  opened — · clicked —\n", "  sent    —\n", "  opened  —\n"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text has no %q:\n%s", want, text.String())
		}
	}
	if n := strings.Count(text.String(), "unknown"); n != 1 {
		t.Errorf("the text says unknown %d times, want once:\n%s", n, text.String())
	}
	var page bytes.Buffer
	if err := WriteHTML(&page, r, Meta{Store: "demo", Made: demoNow, Loc: time.UTC}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<li>Unsubscribed <b>—</b></li>", "<li>Open rate <b>—</b></li>", "<td>13</td><td>—</td><td>—</td><td>—</td>",
		"restock e-mails sent (not known until the submissions' details are fetched)"} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("the page has no %q", want)
		}
	}
	// With every detail, the same numbers are known.
	r = demoReport(t, Options{})
	if r.Summary.Unsubscribed == nil || r.Summary.Opened == nil || r.Periods[0].Sent == nil {
		t.Errorf("with every detail: summary %+v, first period %+v", r.Summary, r.Periods[0])
	}
}

// A filter no submission matches is said (the command warns), whatever the
// range; one that matches is not.
func TestFilterMatchingNothing(t *testing.T) {
	db := demoMirror(t, 320)
	sub := sandbox.DemoState().Submissions[0]
	for _, c := range []struct {
		opts Options
		none bool
	}{
		{Options{ProductID: 1}, true}, {Options{SKU: "no-such-sku"}, true}, {Options{VariantID: 2}, true},
		{Options{ProductID: sub.ProductID}, false}, {Options{SKU: strings.ToLower(*sub.SKU)}, false}, {Options{}, false},
		{Options{ProductID: sub.ProductID, Since: demoNow.Add(-time.Hour)}, false}, // an empty range is not a wrong id
	} {
		c.opts.Now, c.opts.Loc = demoNow, time.UTC
		r, err := Build(context.Background(), db, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if r.MatchedNothing() != c.none {
			t.Errorf("%+v: matched nothing %v, want %v", c.opts, r.MatchedNothing(), c.none)
		}
	}
}

// The page's charts hold no text of their own (an SVG's text shrinks with
// the drawing: at a phone's 390 px it was unreadable, and labels were cut
// off): their legends, labels and scales are HTML; every mark of the time
// chart carries its legend; every rate shows what it is of.
func TestHTMLChartsReadableAndRatesCounted(t *testing.T) {
	r := demoReport(t, Options{})
	var b bytes.Buffer
	if err := WriteHTML(&b, r, Meta{Store: "demo", Made: demoNow, Loc: time.UTC, Command: "storectl bis report", Help: "storectl bis report --help"}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, svg := range regexp.MustCompile(`(?s)<svg.*?</svg>`).FindAllString(page, -1) {
		if strings.Contains(svg, "<text") {
			t.Errorf("an SVG holds text: %.200s", svg)
		}
		marks := regexp.MustCompile(`<rect [^>]*>`).FindAllString(svg, -1)
		titled := regexp.MustCompile(`<rect [^>]*><title>week of \d{4}-\d\d-\d\d: \d+ (signups|restock e-mails sent)</title></rect>`).FindAllString(svg, -1)
		if len(marks) == 0 || len(titled) != len(marks) {
			t.Errorf("%d of the %d marks carry their legend", len(titled), len(marks))
		}
	}
	if !strings.Contains(page, `<ul class="legend"><li><span class="key s0" aria-hidden="true"></span>signups</li>`) {
		t.Error("the time chart's legend is not HTML")
	}
	// Every rate, outside styles and trends (a change, not a rate), says
	// what it is of: "63% of 63".
	text := regexp.MustCompile(`(?s)<style>.*?</style>|style="[^"]*"|[↑↓][+-]\d+%`).ReplaceAllString(page, "")
	for _, m := range regexp.MustCompile(`\d+%.{0,8}`).FindAllString(text, -1) {
		if !regexp.MustCompile(`^\d+% of \d`).MatchString(m) {
			t.Errorf("a rate without its count: %q", m)
		}
	}
	for _, want := range []string{"<li>Open rate <b>63% of 63</b></li>", "40 (63% of 63)"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page has no %q", want)
		}
	}
	if !strings.Contains(page, "What each number means: <code>storectl bis report --help</code>") || strings.Contains(page, "docs/") {
		t.Error("the footer names no command, or a repository path")
	}
}

// --since is at or after, to the fraction of a second: a submission made
// at 04:06:58.000000 is in a report since then, not in one since half a
// second later (issue 37: the bound was cut to the second).
func TestSinceIsAtOrAfter(t *testing.T) {
	db := demoMirror(t, 320)
	sub := sandbox.DemoState().Submissions[len(sandbox.DemoState().Submissions)-1]
	for _, c := range []struct {
		since time.Time
		want  int
	}{{sub.CreatedAt, 1}, {sub.CreatedAt.Add(500 * time.Millisecond), 0}, {sub.CreatedAt.Add(-time.Microsecond), 1}} {
		r, err := Build(context.Background(), db, Options{Now: demoNow, Loc: time.UTC, ProductID: sub.ProductID, VariantID: sub.VariantID,
			Since: c.since, Until: sub.CreatedAt.Add(time.Second)})
		if err != nil {
			t.Fatal(err)
		}
		if r.Summary.Signups != c.want {
			t.Errorf("since %s: %d signups, want %d (created %s)", c.since.Format(time.RFC3339Nano), r.Summary.Signups, c.want, sub.CreatedAt.Format(time.RFC3339Nano))
		}
	}
}
