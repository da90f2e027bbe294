package report

import (
	"fmt"
	"html"
	"html/template"
	"strings"
)

// The page's charts hold no script, no library, no font or file to fetch,
// so the page shows the same offline, printed and on a phone. Every word
// of a chart is HTML text at the page's own size, never text inside an SVG
// (which scales down with the drawing: unreadable on a phone); each mark
// carries its legend (a bar its label, an SVG mark its title); a table
// under each chart holds its numbers.

// bar is one labelled value of a chart.
type barValue struct {
	label string
	value *int   // nil: not known
	note  string // shown after the value
}

// known is a bar's value where it is known.
func known(n int) *int { return &n }

// chart is a chart with its accessible title and description.
type chart struct {
	id, title, desc string
}

// hbars draws one horizontal bar per value, scaled to the largest, each
// a row of its label, its bar and its value; on a narrow screen the label
// takes a line of its own above (page.html's .bars).
func hbars(c chart, values []barValue) template.HTML {
	most := 0
	for _, v := range values {
		if v.value != nil {
			most = max(most, *v.value)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<figure id="chart-%s" aria-labelledby="%s-t" aria-describedby="%s-d">`, c.id, c.id, c.id)
	fmt.Fprintf(&b, `<figcaption><span id="%s-t" class="title">%s</span> <span id="%s-d">%s</span></figcaption><ol class="bars">`,
		c.id, html.EscapeString(c.title), c.id, html.EscapeString(c.desc))
	for _, v := range values {
		width, value := 0.0, "—"
		if v.value != nil {
			value = fmt.Sprint(*v.value)
			if most > 0 && *v.value > 0 {
				width = max(float64(*v.value)/float64(most)*100, 0.5) // the least count still shows
			}
		}
		fmt.Fprintf(&b, `<li><span class="label">%s</span><span class="track" aria-hidden="true"><span class="bar" style="width:%.1f%%"></span></span><span class="value">%s%s</span></li>`,
			html.EscapeString(v.label), width, value, html.EscapeString(v.note))
	}
	b.WriteString(`</ol></figure>`)
	return template.HTML(b.String()) // every string in it was escaped above
}

// series is one kind of bar of timeBars: its name in the legend and its
// value per period (nil: not known).
type series struct {
	name  string
	value func(Periodic) *int
}

// timeBars draws, per period, a bar of each series side by side, each bar
// titled with its period, count and series; the legend, the scale and the
// first and last periods' dates are the figure's caption, in HTML. A series
// not known (sends without details) is drawn as nothing, and its legend
// says so.
func timeBars(c chart, by Period, ps []Periodic, all []series) template.HTML {
	const w, h = 640, 200
	most := 1
	for _, p := range ps {
		for _, s := range all {
			if v := s.value(p); v != nil {
				most = max(most, *v)
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<figure id="chart-%s">`, c.id)
	fmt.Fprintf(&b, `<svg viewBox="0 0 %d %d" role="img" aria-labelledby="%s-t %s-d" preserveAspectRatio="xMinYMin meet">`, w, h, c.id, c.id)
	fmt.Fprintf(&b, `<title id="%s-t">%s</title><desc id="%s-d">%s</desc>`, c.id, html.EscapeString(c.title), c.id, html.EscapeString(c.desc))
	fmt.Fprintf(&b, `<line x1="0" y1="%d" x2="%d" y2="%d" class="axis"/>`, h, w, h)
	if n := len(ps); n > 0 {
		slot := float64(w) / float64(n)
		width := 0.8 / float64(len(all))
		for i, p := range ps {
			x := float64(i) * slot
			for j, s := range all {
				v := s.value(p)
				if v == nil {
					continue
				}
				bh := float64(*v) / float64(most) * float64(h)
				fmt.Fprintf(&b, `<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" class="s%d"><title>%s of %s: %d %s</title></rect>`,
					x+slot*(0.1+width*float64(j)), float64(h)-bh, slot*width, bh, j, by, p.Start, *v, html.EscapeString(s.name))
			}
		}
	}
	b.WriteString(`</svg><figcaption><ul class="legend">`)
	for j, s := range all {
		name := html.EscapeString(s.name)
		if len(ps) > 0 && s.value(ps[0]) == nil {
			name += " (not known until the submissions' details are fetched)"
		}
		fmt.Fprintf(&b, `<li><span class="key s%d" aria-hidden="true"></span>%s</li>`, j, name)
	}
	b.WriteString(`</ul>`)
	if n := len(ps); n > 0 {
		fmt.Fprintf(&b, `<p class="scale">The tallest bar is %d; %d %ss from %s to %s.</p>`, most, n, by, ps[0].Start, ps[n-1].Start)
	}
	b.WriteString(`</figcaption></figure>`)
	return template.HTML(b.String()) // numbers, fixed text and escaped names only
}
