package output

import (
	"fmt"

	"github.com/storectl/storectl/internal/iostreams"
)

// PageFooter tells people on stderr where they are in a paged list:
//
//	page 1 of 4 · 47 total · --page 2 or --all for more
//	page 4 of 4 · 47 total
//
// Commands print it in table mode only (Printer.IsTable); stdout stays data.
func PageFooter(ios *iostreams.IOStreams, current, last, total int) {
	msg := fmt.Sprintf("page %d of %d · %d total", current, max(last, current), total)
	if current < last {
		msg += fmt.Sprintf(" · --page %d or --all for more", current+1)
	}
	fmt.Fprintln(ios.ErrOut, msg)
}
