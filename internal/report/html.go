package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"sync"
	"time"

	"github.com/storectl/storectl/internal/output"
)

//go:embed page.html
var pageSource string

// page is parsed on first use, not when the program starts: every run of
// storectl (--version included) would pay its thousand allocations.
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"percent":  percent,
		"rate":     rateOf,
		"count":    count,
		"clean":    output.Sanitize,
		"hours":    quantHours,
		"grouped":  output.Grouped,
		"trend":    trendText,
		"velocity": func(v float64) string { return fmt.Sprintf("%.2f", v) },
	}).Parse(pageSource))
})

// pageData is what the page template shows.
type pageData struct {
	R                            *Report
	Store, Made, AsOf, From, To  string
	Command, Help                string
	Signups, Funnel, Ages, Prods template.HTML
	TopProducts                  []Product
}

// topProducts is how many products the page draws and lists.
const topProducts = 15

// WriteHTML writes the report as one self-contained page: inline styles,
// no script, and a Content-Security-Policy that lets it fetch nothing. It
// holds no e-mail address or phone. Every rate shows what it is of ("63%
// of 63"), and what is not known reads "—".
func WriteHTML(w io.Writer, r *Report, m Meta) error {
	d := pageData{R: r, Store: output.Sanitize(m.Store), Command: m.Command, Help: m.Help, Made: m.Made.In(m.Loc).Format("2006-01-02 15:04 MST"),
		AsOf: "never", From: "the first submission", To: r.Range.Until.In(m.Loc).Format(time.DateOnly)}
	if r.AsOf != nil {
		d.AsOf = r.AsOf.In(m.Loc).Format("2006-01-02 15:04 MST")
	}
	if r.Range.Since != nil {
		d.From = r.Range.Since.In(m.Loc).Format(time.DateOnly)
	}
	d.TopProducts = r.Products[:min(topProducts, len(r.Products))]
	d.Signups = timeBars(chart{"signups", "Signups and restock e-mails sent by " + string(r.Range.By),
		fmt.Sprintf("%d periods from %s to %s; the table below lists each.", len(r.Periods), d.From, d.To)}, r.Range.By, r.Periods,
		[]series{{"signups", func(p Periodic) *int { return &p.Signups }}, {"restock e-mails sent", func(p Periodic) *int { return p.Sent }}})
	s := r.Summary
	d.Funnel = hbars(chart{"funnel", "From signup to click.", "Submissions created in the range: signed up, sent, sent with their detail, opened, clicked."},
		[]barValue{{"signed up", known(s.Signups), ""}, {"restock e-mail sent", known(s.Sent), ""}, {"sent, with their detail", known(s.DetailedSent), ""},
			{"opened", s.Opened, rateNote(s.Opened, s.OpenRate, s.DetailedSent)}, {"clicked", s.Clicked, rateNote(s.Clicked, s.ClickRate, s.DetailedSent)}})
	var ages []barValue
	for _, a := range r.WaitlistAges {
		ages = append(ages, barValue{label: a.Label, value: known(a.Count)})
	}
	d.Ages = hbars(chart{"ages", "How long pending requests have waited.", "Pending submissions of the range by age."}, ages)
	var prods []barValue
	for _, p := range d.TopProducts {
		prods = append(prods, barValue{label: productName(p), value: known(p.Pending), note: " " + trendText(p.Trend)})
	}
	d.Prods = hbars(chart{"products", "Products people wait for.", "Pending requests per product, most first, with the trend of the last 7 days against the 28-day rate."}, prods)
	return page().Execute(w, d)
}

// rateOf is a rate with what it is of: "63% of 63"; "—" when not known.
func rateOf(r *float64, of int) string {
	if r == nil {
		return "—"
	}
	return percent(r) + " of " + output.Grouped(of)
}

// rateNote follows a count in the funnel: " (63% of 63)", or nothing when
// the count is not known.
func rateNote(n *int, r *float64, of int) string {
	if n == nil || r == nil {
		return ""
	}
	return " (" + rateOf(r, of) + ")"
}

func productName(p Product) string {
	name := output.Sanitize(p.ProductTitle)
	if p.VariantTitle != nil {
		name += " / " + output.Sanitize(*p.VariantTitle)
	}
	return name
}

func quantHours(v *float64) string {
	if v == nil {
		return "—"
	}
	return hours(*v)
}
