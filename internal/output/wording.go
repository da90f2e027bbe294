package output

import (
	"fmt"
	"strings"
)

// FirstAndMore lists the items shown and counts the rest of total: "21,
// 22, 23 and 5 more". A message that names many items names the first
// few this way, so that a million of them cost one line.
func FirstAndMore(shown []string, total int) string {
	if total <= len(shown) {
		return strings.Join(shown, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(shown, ", "), total-len(shown))
}

// ListChanged is what a command says when a list changed while it was
// read page by page: how many rows (of noun; "" leaves the noun out) the
// server counted at the start and at the end, that each row was still
// handled once ("each written once"), and how many of them left the store
// meanwhile (0: not said).
func ListChanged(first, last int64, noun, each string, left int) string {
	if noun != "" {
		noun += " "
	}
	line := fmt.Sprintf("the list changed while it was read: %d %sat the start, %d at the end; each %s once", first, noun, last, each)
	if left > 0 {
		line += fmt.Sprintf(" (%d of them have left the store since)", left)
	}
	return line
}
