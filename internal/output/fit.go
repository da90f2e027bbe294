package output

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// colFit is how one column gives way on a terminal too narrow for the
// table (see Column.Drop, Column.Answer, Column.Min).
type colFit struct {
	rank int // shrinkFirst … neverShrink
	drop int // > 0: may be left out, lowest first
	min  int // narrowest a cut leaves it; 0: minColWidth
}

// fitState carries a table's fitting from one block of rows to the next (a
// streamed table): the choice of columns and zones is made on the first
// block and kept, and the natural widths only grow.
type fitState struct {
	decided bool
	show    []int    // indexes of the columns shown, in order
	zones   []string // per column: the zone moved into its header, or ""
	dropped []int    // indexes of the columns left out
	natural []int    // per shown column: the widest cell so far
}

// Dropped names the columns left out, by index into the table's columns.
func (s *fitState) Dropped() []int { return s.dropped }

// zoned matches a time as HumanTime shows it: the minute, then its zone
// ("UTC", "CET", "+04", "shop time").
var zoned = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}) (\S.{0,9})$`) })

// decide picks the columns and zones of a table of width at most width:
// first the zone suffixes of time columns move into their headers, then
// the droppable columns go, lowest Drop first, until the table fits. With
// width 0 (not a terminal) every column stays as it is.
func (s *fitState) decide(header []string, rows [][]string, fits []colFit, width int) {
	s.decided = true
	n := rowWidth(header, rows)
	s.zones = make([]string, n)
	s.show = make([]int, n)
	for i := range s.show {
		s.show[i] = i
	}
	if width <= 0 || tableWidth(naturalWidths(header, rows, nil)) <= width {
		return
	}
	for i := range n {
		s.zones[i] = commonZone(rows, i)
	}
	for _, c := range dropOrder(fits, n) {
		if tableWidth(s.comfortable(header, rows, fits)) <= width {
			break
		}
		s.dropped = append(s.dropped, c)
		s.show = slices.DeleteFunc(s.show, func(i int) bool { return i == c })
	}
	slices.Sort(s.dropped)
}

// readableCut is how narrow free text may be cut and still be read ("Prairie
// Waffle P…"): a table that fits with its free text cut to this keeps its
// droppable columns.
const readableCut = 24

// comfortable are the shown columns' widths with free text cut to
// readableCut and every other column whole.
func (s *fitState) comfortable(header []string, rows [][]string, fits []colFit) []int {
	widths := s.widthsShown(header, rows)
	for k, i := range s.show {
		if i >= len(fits) || fits[i].rank == shrinkFirst {
			widths[k] = min(widths[k], readableCut)
		}
	}
	return widths
}

// widthsShown are the natural widths of the columns shown, zones moved.
func (s *fitState) widthsShown(header []string, rows [][]string) []int {
	h, r := s.apply(header, rows)
	return naturalWidths(h, r, nil)
}

// apply keeps the columns shown, with each moved zone out of its cells and
// in its header: "CREATED (UTC)".
func (s *fitState) apply(header []string, rows [][]string) ([]string, [][]string) {
	var h []string
	if header != nil {
		h = make([]string, len(s.show))
		for k, i := range s.show {
			h[k] = cellAt(header, i)
			if s.zones[i] != "" {
				h[k] += " (" + s.zones[i] + ")"
			}
		}
	}
	out := make([][]string, len(rows))
	for r, row := range rows {
		cells := make([]string, len(s.show))
		for k, i := range s.show {
			c := cellAt(row, i)
			if z := s.zones[i]; z != "" {
				c = strings.TrimSuffix(c, " "+z)
			}
			cells[k] = c
		}
		out[r] = cells
	}
	return h, out
}

func cellAt(cells []string, i int) string {
	if i < len(cells) {
		return cells[i]
	}
	return ""
}

// commonZone is the zone most of a column's times are shown in, when
// every cell is such a time or a word without digits ("—", "no end"):
// "UTC". A cell in another zone (summer time) keeps its own.
func commonZone(rows [][]string, col int) string {
	count := map[string]int{}
	best := ""
	for _, row := range rows {
		c := cellAt(row, col)
		m := zoned().FindStringSubmatch(c)
		switch {
		case m == nil && strings.ContainsAny(c, "0123456789"):
			return ""
		case m == nil:
			continue
		}
		count[m[2]]++
		if count[m[2]] > count[best] {
			best = m[2]
		}
	}
	return best
}

// dropOrder lists the droppable columns, lowest Drop first.
func dropOrder(fits []colFit, n int) []int {
	var order []int
	for i := range min(n, len(fits)) {
		if fits[i].drop > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return fits[a].drop - fits[b].drop })
	return order
}

func rowWidth(header []string, rows [][]string) int {
	n := len(header)
	for _, r := range rows {
		n = max(n, len(r))
	}
	return n
}

// tableWidth is the printed width of columns of these widths.
func tableWidth(widths []int) int {
	total := 0
	for _, w := range widths {
		total += w
	}
	return total + columnGap*max(len(widths)-1, 0)
}

// fitShown fits the shown columns' widths into width: free text gives way
// first, then the short fixed forms, then the command's answer and the
// addresses; ids last, and only so that nothing is ever wider than the
// terminal.
func fitShown(natural []int, width int, fits []colFit, show []int) []int {
	ranks := make([]int, len(show))
	mins := make([]int, len(show))
	for k, i := range show {
		if i < len(fits) {
			ranks[k], mins[k] = fits[i].rank, fits[i].min
		}
	}
	widths := fitWidths(natural, width, ranks, mins)
	if tableWidth(widths) > width {
		// Even the ids do not fit: cut everything alike rather than wrap.
		all := make([]int, len(widths))
		for k := range all {
			all[k] = k
		}
		shareOut(widths, natural, all, width-columnGap*(len(widths)-1), 1)
	}
	return widths
}

// cut shortens a cell to width, ending it with "…".
func cut(c string, width int) string {
	if textWidth(c) <= width {
		return c
	}
	if width <= 1 {
		return ellipsis
	}
	return twwidth.Truncate(c, width, ellipsis)
}
