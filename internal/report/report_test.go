package report

import (
	"bytes"
	"context"
	"math"
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
		r, err := Build(context.Background(), db, Options{Now: demoNow.Add(tc.after), Loc: time.UTC})
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
