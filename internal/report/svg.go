package report

import (
	"fmt"
	"html"
	"html/template"
	"strings"
)

// The page's charts are SVG drawn here, inline: no script, no library, no
// font or file to fetch, so the page shows the same offline, printed and
// on a phone (viewBox scales it), and a screen reader gets each chart's
// title and description; a table under each chart holds its numbers.

// bar is one labelled value of a chart.
type barValue struct {
	label string
	value int
	note  string // shown after the value
}

// chart is an SVG chart with its accessible title and description.
type chart struct {
	id, title, desc string
}

func (c chart) open(b *strings.Builder, w, h int) {
	fmt.Fprintf(b, `<svg viewBox="0 0 %d %d" role="img" aria-labelledby="%s-t %s-d" preserveAspectRatio="xMinYMin meet">`, w, h, c.id, c.id)
	fmt.Fprintf(b, `<title id="%s-t">%s</title><desc id="%s-d">%s</desc>`, c.id, html.EscapeString(c.title), c.id, html.EscapeString(c.desc))
}

// hbars draws one horizontal bar per value, scaled to the largest, with
// its label on the left and its value on the right.
func hbars(c chart, values []barValue) template.HTML {
	const w, row, labelW, valueW = 640, 26, 220, 110
	most := 0
	for _, v := range values {
		most = max(most, v.value)
	}
	var b strings.Builder
	c.open(&b, w, row*len(values)+8)
	for i, v := range values {
		y := 4 + i*row
		width := 0
		if most > 0 {
			width = v.value * (w - labelW - valueW) / most
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="label" text-anchor="end">%s</text>`, labelW-8, y+17, html.EscapeString(cut(v.label, 30)))
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" class="bar"/>`, labelW, y+3, max(width, 1), row-8)
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="value">%d%s</text>`, labelW+width+6, y+17, v.value, html.EscapeString(v.note))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every string in it was escaped above
}

// timeBars draws, per period, a bar of signups and a bar of sends side by
// side, with the first and last periods' dates under the axis.
func timeBars(c chart, ps []Periodic) template.HTML {
	const w, h, top, bottom, left = 640, 240, 12, 36, 36
	most := 1
	for _, p := range ps {
		most = max(most, p.Signups, p.Sent)
	}
	var b strings.Builder
	c.open(&b, w, h)
	plotH := h - top - bottom
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" class="axis"/>`, left, h-bottom, w, h-bottom)
	fmt.Fprintf(&b, `<text x="%d" y="%d" class="label" text-anchor="end">%d</text>`, left-4, top+10, most)
	fmt.Fprintf(&b, `<text x="%d" y="%d" class="label" text-anchor="end">0</text>`, left-4, h-bottom)
	if n := len(ps); n > 0 {
		slot := float64(w-left) / float64(n)
		for i, p := range ps {
			x := float64(left) + float64(i)*slot
			for j, v := range []int{p.Signups, p.Sent} {
				bh := float64(v) / float64(most) * float64(plotH)
				fmt.Fprintf(&b, `<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" class="s%d"/>`,
					x+slot*(0.1+0.4*float64(j)), float64(h-bottom)-bh, slot*0.4, bh, j)
			}
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="label">%s</text>`, left, h-bottom+16, ps[0].Start)
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="label" text-anchor="end">%s</text>`, w, h-bottom+16, ps[n-1].Start)
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="10" height="10" class="s0"/><text x="%d" y="%d" class="label">signups</text>`, left, h-12, left+14, h-3)
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="10" height="10" class="s1"/><text x="%d" y="%d" class="label">restock e-mails sent</text>`, left+90, h-12, left+104, h-3)
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // numbers and fixed text only
}
