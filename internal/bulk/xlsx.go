package bulk

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/storectl/storectl/internal/output"
	"github.com/storectl/storectl/internal/xlsx"
)

// eachXLSX reads a workbook as a CSV is read: the first sheet's first row
// names the columns, every other row is a record (the rows continue on the
// next sheets, whose first row repeats the header). Each cell becomes the
// text a CSV would hold: text as written (the guard's quote and the
// visible forms of controls undone, as in a CSV), numbers as their
// digits, TRUE and FALSE as true and false, and a date-time in the zone
// its column's header names ("start_date (Europe/Berlin)", as storectl
// writes it) as ISO 8601 with that zone's offset; under a header without a
// zone, a date-time has none and is read as a CSV's would be.
func eachXLSX(path string, fn func(Record) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	r := &sheetReader{fn: fn}
	err = xlsx.Read(f, info.Size(), r.row)
	var re *xlsx.ReadError
	if errors.As(err, &re) {
		return formatErrorf("%s", re.Msg)
	}
	return err
}

type sheetReader struct {
	fn      func(Record) error
	header  []string
	columns []sheetColumn
	records int
	values  []string
}

// sheetColumn is a header cell read: the column's name, and the zone its
// date-times are in (nil: none named).
type sheetColumn struct {
	name string
	zone *sheetZone
}

func (r *sheetReader) row(sheet string, n int, cells []xlsx.Cell) error {
	if r.header == nil {
		return r.readHeader(cells)
	}
	if n == 1 && r.repeatsHeader(cells) {
		return nil
	}
	r.values = r.values[:0]
	for i, c := range cells {
		r.values = append(r.values, r.text(i, c))
	}
	if blank(r.values) {
		return nil
	}
	r.records++
	rec := Record{Row: r.records, Line: n, Sheet: sheet}
	if len(r.values) > len(r.columns) {
		last := len(r.values)
		for last > len(r.columns) && strings.TrimSpace(r.values[last-1]) == "" {
			last--
		}
		r.values = r.values[:last]
	}
	if len(r.values) > len(r.columns) {
		rec.Problem = fmt.Sprintf("the row has cells in %d columns but the header names %d", len(r.values), len(r.columns))
	} else {
		rec.Fields = make(Object, len(r.values))
		for i, v := range r.values {
			rec.Fields[i] = Field{Key: r.columns[i].name, Value: v}
		}
	}
	return r.fn(rec)
}

func (r *sheetReader) readHeader(cells []xlsx.Cell) error {
	r.header = []string{}
	seen := map[string]int{}
	for i, c := range cells {
		text := output.ReadCell(cellText(c))
		r.header = append(r.header, text)
		col := headerColumn(strings.TrimSpace(text))
		if col.name == "" {
			if i == len(cells)-1 {
				break // a styled but empty last cell
			}
			return formatErrorf("column %d of the header row has no name", i+1)
		}
		if first, dup := seen[strings.ToLower(col.name)]; dup {
			return formatErrorf("the header names column %q twice (columns %d and %d): keep one", col.name, first, i+1)
		}
		seen[strings.ToLower(col.name)] = i + 1
		r.columns = append(r.columns, col)
	}
	return nil
}

// repeatsHeader reports a later sheet's first row that is the header again.
func (r *sheetReader) repeatsHeader(cells []xlsx.Cell) bool {
	if len(cells) < len(r.columns) {
		return false
	}
	for i, c := range cells {
		if i < len(r.header) && output.ReadCell(cellText(c)) != r.header[i] {
			return false
		}
	}
	return true
}

// text is what a cell holds, as a CSV cell would hold it.
func (r *sheetReader) text(col int, c xlsx.Cell) string {
	var zone *sheetZone
	if col < len(r.columns) {
		zone = r.columns[col].zone
	}
	switch c.Kind {
	case xlsx.Text:
		s := output.ReadCell(c.Text)
		if zone != nil {
			if wall, err := time.Parse(time.DateTime, strings.TrimSpace(s)); err == nil {
				// A date beyond a spreadsheet's calendar, written as text.
				return zone.instant(wall)
			}
		}
		return s
	case xlsx.DateTime:
		if zone != nil {
			return zone.instant(c.Time)
		}
	}
	return cellText(c)
}

func cellText(c xlsx.Cell) string {
	switch c.Kind {
	case xlsx.Text, xlsx.Number:
		return c.Text
	case xlsx.Bool:
		return strconv.FormatBool(c.Bool)
	case xlsx.DateTime:
		return c.Time.Format("2006-01-02T15:04:05.999999")
	}
	return ""
}

// zonedHeader is a header naming its zone: "start_date (Europe/Berlin)".
var zonedHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.*\S)\s+\(([^()]+)\)$`) })

// headerColumn reads a header cell: a name, and the zone in parentheses
// after it when that names a zone.
func headerColumn(text string) sheetColumn {
	m := zonedHeader().FindStringSubmatch(text)
	if m == nil {
		return sheetColumn{name: text}
	}
	if m[2] == "shop time" {
		return sheetColumn{name: m[1]} // the shop's own clock, zone unknown
	}
	zone, ok := parseZone(m[2])
	if !ok {
		return sheetColumn{name: text}
	}
	return sheetColumn{name: m[1], zone: zone}
}

// sheetZone is the zone a column's date-times are in.
type sheetZone struct{ loc *time.Location }

// parseZone reads the zone a header names: UTC, an IANA name, or an
// abbreviation of the local zone (what a header names when the system does
// not give the zone's IANA name: "CET"), whose cells hold the local wall
// clock.
func parseZone(name string) (*sheetZone, bool) {
	name = strings.TrimSpace(name)
	switch {
	case name == "UTC" || name == "Z":
		return &sheetZone{loc: time.UTC}, true
	case localAbbreviation(name):
		return &sheetZone{loc: time.Local}, true
	case name == "" || name == "Local":
		return nil, false
	}
	if loc, err := time.LoadLocation(name); err == nil {
		return &sheetZone{loc: loc}, true
	}
	return nil, false
}

// localAbbreviation reports an abbreviation the local zone uses this year
// (its winter or summer name).
func localAbbreviation(name string) bool {
	year := time.Now().Year()
	for _, month := range []time.Month{time.January, time.July} {
		if time.Date(year, month, 1, 12, 0, 0, 0, time.Local).Format("MST") == name {
			return true
		}
	}
	return false
}

// instant is the wall clock read in the zone, as ISO 8601 with its offset.
func (z *sheetZone) instant(wall time.Time) string {
	return time.Date(wall.Year(), wall.Month(), wall.Day(), wall.Hour(), wall.Minute(), wall.Second(), wall.Nanosecond(), z.loc).Format(time.RFC3339Nano)
}
