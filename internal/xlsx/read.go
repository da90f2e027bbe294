package xlsx

import (
	"archive/zip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"strconv"
	"strings"
	"time"
)

// Read reads a workbook's sheets in order, calling fn with each row's cells
// (numbered from 1 within its sheet; a cell left out is Empty): what
// storectl writes and what a spreadsheet saves (shared strings, styles).
// A date-time cell (a number in a date or time format) comes as DateTime,
// its wall clock in Time's UTC; a formula's cell as its last value. The
// sheets are streamed: memory holds the shared strings, not the rows.
func Read(r io.ReaderAt, size int64, fn func(sheet string, row int, cells []Cell) error) error {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return &ReadError{Msg: "not a workbook (" + err.Error() + ")"}
	}
	b := &book{files: map[string]*zip.File{}}
	for _, f := range zr.File {
		b.files[strings.TrimPrefix(f.Name, "/")] = f
	}
	if err := b.load(); err != nil {
		return err
	}
	for _, s := range b.sheets {
		if err := b.readSheet(s, fn); err != nil {
			return err
		}
	}
	return nil
}

// ReadError is a file that is not a workbook Read can read.
type ReadError struct{ Msg string }

func (e *ReadError) Error() string { return e.Msg }

// maxPart bounds the XML one part of a workbook may expand to, so that a
// small hostile file cannot decompress into gigabytes.
const maxPart = 1 << 30

type book struct {
	files    map[string]*zip.File
	sheets   []sheetRef
	strings  []string
	dates    []bool // per cellXfs style: a date or time format
	date1904 bool
}

type sheetRef struct{ name, part string }

func (b *book) open(name string) (io.ReadCloser, error) {
	f, ok := b.files[name]
	if !ok {
		return nil, nil
	}
	rc, err := f.Open()
	if err != nil {
		return nil, &ReadError{Msg: fmt.Sprintf("%s cannot be read: %v", name, err)}
	}
	return struct {
		io.Reader
		io.Closer
	}{&limitedPart{r: rc, name: name, left: maxPart}, rc}, nil
}

// limitedPart fails a part that expands past maxPart.
type limitedPart struct {
	r    io.Reader
	name string
	left int64
}

func (l *limitedPart) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, &ReadError{Msg: fmt.Sprintf("%s expands to more than %d bytes", l.name, int64(maxPart))}
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// parse runs fn on every start element of a part, with its decoder.
func (b *book) parse(name string, required bool, fn func(d *xml.Decoder, se xml.StartElement) error) error {
	rc, err := b.open(name)
	if err != nil {
		return err
	}
	if rc == nil {
		if required {
			return &ReadError{Msg: "not a workbook: it has no " + name}
		}
		return nil
	}
	defer rc.Close()
	d := xml.NewDecoder(rc)
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			var re *ReadError
			if errors.As(err, &re) {
				return re
			}
			return &ReadError{Msg: fmt.Sprintf("%s is not valid XML: %v", name, err)}
		}
		if se, ok := tok.(xml.StartElement); ok {
			if err := fn(d, se); err != nil {
				return err
			}
		}
	}
}

func attr(se xml.StartElement, local string) string {
	for _, a := range se.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// load reads the workbook's sheet list, shared strings and date styles.
func (b *book) load() error {
	targets := map[string]string{}
	err := b.parse("xl/_rels/workbook.xml.rels", true, func(_ *xml.Decoder, se xml.StartElement) error {
		if se.Name.Local == "Relationship" {
			target := attr(se, "Target")
			if strings.HasPrefix(target, "/") {
				target = strings.TrimPrefix(target, "/")
			} else {
				target = path.Join("xl", target)
			}
			targets[attr(se, "Id")] = target
		}
		return nil
	})
	if err != nil {
		return err
	}
	err = b.parse("xl/workbook.xml", true, func(_ *xml.Decoder, se xml.StartElement) error {
		switch se.Name.Local {
		case "workbookPr":
			b.date1904 = attr(se, "date1904") == "1" || attr(se, "date1904") == "true"
		case "sheet":
			b.sheets = append(b.sheets, sheetRef{name: attr(se, "name"), part: targets[attr(se, "id")]})
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := b.loadStrings(); err != nil {
		return err
	}
	return b.loadStyles()
}

func (b *book) loadStrings() error {
	return b.parse("xl/sharedStrings.xml", false, func(d *xml.Decoder, se xml.StartElement) error {
		if se.Name.Local != "si" {
			return nil
		}
		s, err := richText(d, se)
		b.strings = append(b.strings, s)
		return err
	})
}

// richText is the text of an <si> or <is>: its <t>, or its runs' <t>s,
// without phonetic runs.
func richText(d *xml.Decoder, start xml.StartElement) (string, error) {
	var sb strings.Builder
	depth, inText, phonetic := 0, false, 0
	for {
		tok, err := d.Token()
		if err != nil {
			return "", &ReadError{Msg: "a text cell is cut short: " + err.Error()}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch t.Name.Local {
			case "t":
				inText = phonetic == 0
			case "rPh":
				phonetic++
			}
		case xml.EndElement:
			if depth == 0 && t.Name.Local == start.Name.Local {
				return unescapeText(sb.String()), nil
			}
			depth--
			switch t.Name.Local {
			case "t":
				inText = false
			case "rPh":
				phonetic--
			}
		case xml.CharData:
			if inText {
				sb.Write(t)
			}
		}
	}
}

// loadStyles marks the cell styles whose number format shows a date or a
// time.
func (b *book) loadStyles() error {
	custom := map[int]string{}
	inXfs := false
	return b.parse("xl/styles.xml", false, func(d *xml.Decoder, se xml.StartElement) error {
		switch se.Name.Local {
		case "numFmt":
			id, _ := strconv.Atoi(attr(se, "numFmtId"))
			custom[id] = attr(se, "formatCode")
		case "cellXfs":
			inXfs = true
		case "cellStyles", "dxfs":
			inXfs = false
		case "xf":
			if inXfs {
				id, _ := strconv.Atoi(attr(se, "numFmtId"))
				code, ok := custom[id]
				b.dates = append(b.dates, ok && dateFormat(code) || !ok && builtinDate(id))
			}
		}
		return nil
	})
}

// builtinDate reports the built-in number formats that show dates or times.
func builtinDate(id int) bool {
	return id >= 14 && id <= 22 || id >= 27 && id <= 36 || id >= 45 && id <= 47 || id >= 50 && id <= 58
}

// dateFormat reports a format code that shows a date or a time: one with
// y, m, d, h or s outside quoted text, escapes and [colour] brackets.
func dateFormat(code string) bool {
	for i := 0; i < len(code); i++ {
		switch c := code[i]; c {
		case '"':
			if j := strings.IndexByte(code[i+1:], '"'); j >= 0 {
				i += j + 1
			}
		case '\\', '_', '*':
			i++
		case '[':
			j := strings.IndexByte(code[i:], ']')
			if j < 0 {
				return false
			}
			inner := strings.ToLower(code[i+1 : i+j])
			if strings.Trim(inner, "hms") == "" { // [h], [mm], [ss]: elapsed time
				return true
			}
			i += j
		case 'y', 'Y', 'm', 'M', 'd', 'D', 'h', 'H', 's', 'S':
			return true
		}
	}
	return false
}

// readSheet streams one sheet's rows to fn.
func (b *book) readSheet(s sheetRef, fn func(string, int, []Cell) error) error {
	var cells []Cell
	return b.parse(s.part, true, func(d *xml.Decoder, se xml.StartElement) error {
		switch se.Name.Local {
		case "row":
			n, err := strconv.Atoi(attr(se, "r"))
			if err != nil || n < 1 {
				return &ReadError{Msg: fmt.Sprintf("sheet %q: a row without a number", s.name)}
			}
			cells = cells[:0]
			if err := b.readRow(d, s.name, &cells); err != nil {
				return err
			}
			return fn(s.name, n, cells)
		}
		return nil
	})
}

// readRow reads a <row>'s cells into cells, each at its column.
func (b *book) readRow(d *xml.Decoder, sheet string, cells *[]Cell) error {
	for {
		tok, err := d.Token()
		if err != nil {
			return &ReadError{Msg: fmt.Sprintf("sheet %q is cut short: %v", sheet, err)}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local != "c" {
				if err := d.Skip(); err != nil {
					return &ReadError{Msg: fmt.Sprintf("sheet %q is cut short: %v", sheet, err)}
				}
				continue
			}
			col := len(*cells)
			if ref := attr(t, "r"); ref != "" {
				if col, err = columnIndex(ref); err != nil {
					return &ReadError{Msg: fmt.Sprintf("sheet %q: cell %q: %v", sheet, ref, err)}
				}
			}
			c, err := b.readCell(d, t)
			if err != nil {
				return err
			}
			for len(*cells) <= col {
				*cells = append(*cells, Cell{})
			}
			(*cells)[col] = c
		case xml.EndElement:
			return nil
		}
	}
}

// maxColumns is the widest sheet a spreadsheet makes (XFD).
const maxColumns = 16384

// columnIndex is the 0-based column of a cell reference such as "C7".
func columnIndex(ref string) (int, error) {
	n := 0
	i := 0
	for ; i < len(ref) && ref[i] >= 'A' && ref[i] <= 'Z'; i++ {
		n = n*26 + int(ref[i]-'A'+1)
		if n > maxColumns {
			return 0, errors.New("beyond the last column")
		}
	}
	if i == 0 {
		return 0, errors.New("not a cell reference")
	}
	return n - 1, nil
}

// readCell reads one <c>: its type, style and value.
func (b *book) readCell(d *xml.Decoder, c xml.StartElement) (Cell, error) {
	kind, style := attr(c, "t"), attr(c, "s")
	var value, inline string
	hasInline := false
	for {
		tok, err := d.Token()
		if err != nil {
			return Cell{}, &ReadError{Msg: "a cell is cut short: " + err.Error()}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "v":
				var v string
				if err := d.DecodeElement(&v, &t); err != nil {
					return Cell{}, &ReadError{Msg: "a cell's value is cut short: " + err.Error()}
				}
				value = v
			case "is":
				if inline, err = richText(d, t); err != nil {
					return Cell{}, err
				}
				hasInline = true
			default:
				if err := d.Skip(); err != nil { // a formula: its value is in <v>
					return Cell{}, &ReadError{Msg: "a cell is cut short: " + err.Error()}
				}
			}
		case xml.EndElement:
			return b.cell(kind, style, value, inline, hasInline)
		}
	}
}

func (b *book) cell(kind, style, value, inline string, hasInline bool) (Cell, error) {
	switch kind {
	case "inlineStr":
		if !hasInline {
			return Cell{}, nil
		}
		return TextCell(inline), nil
	case "s":
		i, err := strconv.Atoi(value)
		if err != nil || i < 0 || i >= len(b.strings) {
			return Cell{}, &ReadError{Msg: fmt.Sprintf("a cell names shared string %q, which the workbook lacks", value)}
		}
		return TextCell(b.strings[i]), nil
	case "str", "e":
		if value == "" {
			return Cell{}, nil // a formula never calculated
		}
		return TextCell(unescapeText(value)), nil
	case "b":
		return BoolCell(value == "1" || value == "true"), nil
	case "d":
		return TextCell(value), nil
	}
	if value == "" {
		return Cell{}, nil
	}
	if s, err := strconv.Atoi(style); err == nil && s >= 0 && s < len(b.dates) && b.dates[s] {
		if t, ok := b.fromSerial(value); ok {
			return Cell{Kind: DateTime, Time: t}, nil
		}
	}
	return Cell{Kind: Number, Text: value}, nil
}

// fromSerial is the wall clock a date serial stands for, to the
// microsecond (what a double holds of a day's fraction for dates of our
// era).
func (b *book) fromSerial(v string) (time.Time, bool) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > 2958466 {
		return time.Time{}, false
	}
	epoch := excelEpoch
	if b.date1904 {
		epoch = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	days := math.Floor(f)
	micros := math.Round((f - days) * 86400e6)
	return epoch.AddDate(0, 0, int(days)).Add(time.Duration(micros) * time.Microsecond), true
}

// unescapeText undoes the format's _xHHHH_ escape (writeText's): each
// becomes its character, _x005F_ an underscore.
func unescapeText(s string) string {
	i := strings.Index(s, "_x")
	if i < 0 {
		return s
	}
	var sb strings.Builder
	sb.WriteString(s[:i])
	for i < len(s) {
		if s[i] == '_' && looksEscaped(s[i:]) {
			n, _ := strconv.ParseUint(s[i+2:i+6], 16, 32)
			sb.WriteRune(rune(n))
			i += 7
			continue
		}
		sb.WriteByte(s[i])
		i++
	}
	return sb.String()
}
