package iostreams

import (
	"strings"

	"github.com/mattn/go-runewidth"
)

// messagePrefixes start the lines whose continuation is indented under
// their text: an error, a hint, a note, a warning.
var messagePrefixes = []string{"storectl: ", "hint: ", "note: ", "warning: "}

// wrapMessage breaks a line of a message wider than width at spaces, so
// that a terminal does not break it inside a word; each continuation is
// indented under the text after its prefix ("note: "), or under the
// line's own indentation. A `code span` is kept on one line when it fits
// one, so that a command can be copied whole. A word wider than the line
// stays whole. A line that fits, or holds a carriage return or an escape
// sequence (a status line's redraw), is returned as it is.
func wrapMessage(line string, width int) string {
	if width < 20 || runewidth.StringWidth(line) <= width || strings.ContainsAny(line, "\r\x1b") {
		return line
	}
	indent := len(line) - len(strings.TrimLeft(line, " "))
	for _, p := range messagePrefixes {
		if strings.HasPrefix(line, p) {
			indent = len(p)
			break
		}
	}
	if indent > width/3 {
		indent = 2
	}
	pad := strings.Repeat(" ", indent)
	var units []string
	for _, u := range wrapUnits(strings.TrimLeft(line, " ")) {
		if runewidth.StringWidth(u) > width-indent {
			units = append(units, strings.Fields(u)...) // a span wider than a line
		} else {
			units = append(units, u)
		}
	}
	var b strings.Builder
	col := 0
	for i, unit := range units {
		w := runewidth.StringWidth(unit)
		switch {
		case i == 0:
			b.WriteString(line[:len(line)-len(strings.TrimLeft(line, " "))])
			col = len(line) - len(strings.TrimLeft(line, " "))
		case col+1+w > width:
			b.WriteString("\n" + pad)
			col = indent
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(unit)
		col += w
	}
	return b.String()
}

// wrapUnits are the words of text, a code span (between backquotes) kept
// as one unit.
func wrapUnits(text string) []string {
	var units []string
	var span []string
	for _, word := range strings.Fields(text) {
		switch {
		case span != nil:
			span = append(span, word)
			if strings.Count(word, "`")%2 == 1 {
				units = append(units, strings.Join(span, " "))
				span = nil
			}
		case strings.Count(word, "`")%2 == 1:
			span = []string{word}
		default:
			units = append(units, word)
		}
	}
	if span != nil {
		units = append(units, span...)
	}
	return units
}
