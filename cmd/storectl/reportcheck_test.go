package main

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/storectl/storectl/internal/sandbox"
)

// cmdReportCheck checks a `bis report -o json` of the demo store (every
// detail fetched, TZ=UTC, by week, shop_timezone -07:00) against numbers
// computed here from the sandbox's own data, not from the mirror: the
// summary, every period, the locales and each product's counts. The
// report's range.until is its now.
//
//	reportcheck REPORT.json
func cmdReportCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: reportcheck REPORT.json")
	}
	var got demoReport
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &got))
	now, err := time.Parse(time.RFC3339Nano, got.Range.Until)
	ts.Check(err)
	want := expectReport(sandbox.DemoState().Submissions, now)
	for _, err := range compareReports(got, want) {
		ts.Logf("%s", err)
	}
	if errs := compareReports(got, want); len(errs) > 0 {
		ts.Fatalf("%d numbers differ from the sandbox's own data", len(errs))
	}
}

// demoReport is the part of the report's JSON the check reads.
type demoReport struct {
	Summary struct {
		SignupsJ      int                 `json:"signups"`
		PendingJ      int                 `json:"pending"`
		SentJ         int                 `json:"sent"`
		OpenedJ       int                 `json:"opened"`
		ClickedJ      int                 `json:"clicked"`
		UnsubscribedJ int                 `json:"unsubscribed"`
		DetailedSentJ int                 `json:"detailed_sent"`
		OpenRate      *float64            `json:"open_rate"`
		ClickRate     *float64            `json:"click_rate"`
		Notify        map[string]*float64 `json:"time_to_notify_hours"`
		Click         map[string]*float64 `json:"time_to_click_hours"`
		Age           map[string]*float64 `json:"waitlist_age_hours"`
	} `json:"summary"`
	Periods []struct {
		Start                          string
		Signups, Sent, Opened, Clicked int
	} `json:"periods"`
	Products []struct {
		ProductID  int64    `json:"product_id"`
		Pending    int      `json:"pending"`
		Signups7d  int      `json:"signups_7d"`
		Signups28d int      `json:"signups_28d"`
		Velocity   float64  `json:"velocity_per_day"`
		OpenRate   *float64 `json:"open_rate"`
		ClickRate  *float64 `json:"click_rate"`
	} `json:"products"`
	Locales []struct {
		Locale string
		Count  int
	} `json:"locales"`
	Range struct {
		Until string `json:"until"`
	} `json:"range"`
}

// expected are the numbers as the sandbox's data gives them.
type expected struct {
	counts                                      map[string]int
	rates, quantiles                            map[string]*float64
	periods                                     map[string][4]int
	locales                                     map[string]int
	pending, s7, s28, opened, clicked, detailed map[int64]int
}

func expectReport(subs []sandbox.Submission, now time.Time) expected {
	shop := time.FixedZone("shop", -7*3600)
	e := expected{counts: map[string]int{}, rates: map[string]*float64{}, quantiles: map[string]*float64{},
		periods: map[string][4]int{}, locales: map[string]int{}, pending: map[int64]int{}, s7: map[int64]int{},
		s28: map[int64]int{}, opened: map[int64]int{}, clicked: map[int64]int{}, detailed: map[int64]int{}}
	var notify, click, ages []float64
	week := func(t time.Time) string {
		t = t.UTC()
		d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
		return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7)).Format(time.DateOnly)
	}
	bump := func(key string, i int) { p := e.periods[key]; p[i]++; e.periods[key] = p }
	for _, s := range subs {
		e.counts["signups"]++
		e.locales[s.Locale]++
		bump(week(s.CreatedAt), 0)
		if now.Sub(s.CreatedAt) < 7*24*time.Hour {
			e.s7[s.ProductID]++
		}
		if now.Sub(s.CreatedAt) < 28*24*time.Hour {
			e.s28[s.ProductID]++
		}
		if s.Unsubscribe == 1 {
			e.counts["unsubscribed"]++
		}
		if s.Status == 0 {
			e.counts["pending"]++
			e.pending[s.ProductID]++
			ages = append(ages, now.Sub(s.CreatedAt).Hours())
			continue
		}
		e.counts["sent"]++
		e.detailed[s.ProductID]++
		notify = append(notify, s.LastSent.Sub(s.CreatedAt).Hours())
		bump(week(*s.LastSent), 1)
		if s.Opened != "" {
			e.counts["opened"]++
			e.opened[s.ProductID]++
			t, _ := time.ParseInLocation(time.DateTime, s.Opened, shop)
			bump(week(t), 2)
		}
		if s.Clicked != "" {
			e.counts["clicked"]++
			e.clicked[s.ProductID]++
			t, _ := time.ParseInLocation(time.DateTime, s.Clicked, shop)
			bump(week(t), 3)
			click = append(click, t.Sub(*s.LastSent).Hours())
		}
	}
	e.rates["open"] = fraction(e.counts["opened"], e.counts["sent"])
	e.rates["click"] = fraction(e.counts["clicked"], e.counts["sent"])
	for name, values := range map[string][]float64{"notify": notify, "click": click, "age": ages} {
		sort.Float64s(values)
		e.quantiles[name+".median"] = percentileInc(values, 0.5)
		e.quantiles[name+".p90"] = percentileInc(values, 0.9)
		if name == "age" {
			e.quantiles["age.max"] = &values[len(values)-1]
		}
	}
	return e
}

// percentileInc is a spreadsheet's PERCENTILE.INC.
func percentileInc(sorted []float64, p float64) *float64 {
	if len(sorted) == 0 {
		return nil
	}
	pos := p * float64(len(sorted)-1)
	i := int(pos)
	v := sorted[i]
	if i+1 < len(sorted) {
		v += (pos - float64(i)) * (sorted[i+1] - sorted[i])
	}
	return &v
}

func fraction(n, of int) *float64 {
	if of == 0 {
		return nil
	}
	f := float64(n) / float64(of)
	return &f
}

func compareReports(got demoReport, want expected) []error {
	var errs []error
	check := func(what string, g, w any) {
		if fmt.Sprint(deref(g)) != fmt.Sprint(deref(w)) {
			errs = append(errs, fmt.Errorf("%s: report %v, sandbox %v", what, deref(g), deref(w)))
		}
	}
	near := func(what string, g, w *float64) {
		if (g == nil) != (w == nil) || g != nil && math.Abs(*g-*w) > 1e-6 {
			errs = append(errs, fmt.Errorf("%s: report %v, sandbox %v", what, deref(g), deref(w)))
		}
	}
	s := got.Summary
	for name, v := range map[string]int{"signups": s.SignupsJ, "pending": s.PendingJ, "sent": s.SentJ, "opened": s.OpenedJ,
		"clicked": s.ClickedJ, "unsubscribed": s.UnsubscribedJ} {
		check("summary."+name, v, want.counts[name])
	}
	check("summary.detailed_sent", s.DetailedSentJ, want.counts["sent"])
	near("summary.open_rate", s.OpenRate, want.rates["open"])
	near("summary.click_rate", s.ClickRate, want.rates["click"])
	for _, q := range []struct {
		name string
		m    map[string]*float64
		keys []string
	}{{"notify", s.Notify, []string{"median", "p90"}}, {"click", s.Click, []string{"median", "p90"}}, {"age", s.Age, []string{"median", "p90", "max"}}} {
		for _, k := range q.keys {
			near("summary."+q.name+"."+k, q.m[k], want.quantiles[q.name+"."+k])
		}
	}
	errs = append(errs, comparePeriods(got, want)...)
	for _, l := range got.Locales {
		check("locale "+l.Locale, l.Count, want.locales[l.Locale])
	}
	check("locales", len(got.Locales), len(want.locales))
	waiting := 0
	for _, p := range got.Products {
		if p.Pending > 0 {
			waiting++
		}
		id := fmt.Sprint(p.ProductID)
		check("product "+id+" pending", p.Pending, want.pending[p.ProductID])
		check("product "+id+" signups_7d", p.Signups7d, want.s7[p.ProductID])
		check("product "+id+" signups_28d", p.Signups28d, want.s28[p.ProductID])
		near("product "+id+" open_rate", p.OpenRate, fraction(want.opened[p.ProductID], want.detailed[p.ProductID]))
		near("product "+id+" click_rate", p.ClickRate, fraction(want.clicked[p.ProductID], want.detailed[p.ProductID]))
	}
	check("products with pending requests", waiting, len(want.pending))
	return errs
}

func comparePeriods(got demoReport, want expected) []error {
	var errs []error
	seen := 0
	for _, p := range got.Periods {
		w := want.periods[p.Start]
		if [4]int{p.Signups, p.Sent, p.Opened, p.Clicked} != w {
			errs = append(errs, fmt.Errorf("period %s: report %d %d %d %d, sandbox %v", p.Start, p.Signups, p.Sent, p.Opened, p.Clicked, w))
		}
		if w != [4]int{} {
			seen++
		}
	}
	if seen != len(want.periods) {
		errs = append(errs, fmt.Errorf("the report's periods hold %d of the %d weeks with events", seen, len(want.periods)))
	}
	return errs
}

func deref(v any) any {
	if p, ok := v.(*float64); ok {
		if p == nil {
			return nil
		}
		return *p
	}
	return v
}
