package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
)

// Row records are a table written as data for a merge (iostreams.TableRows):
// a line per row, an RS byte then the cells as a JSON array; the header's
// line has an "h" after the RS.
const (
	recordSep    = '\x1e'
	headerMarker = 'h'
)

func writeRowRecords(w io.Writer, header []string, rows [][]string) error {
	var b bytes.Buffer
	line := func(prefix string, cells []string) {
		b.WriteByte(recordSep)
		b.WriteString(prefix)
		enc, _ := json.Marshal(cells) // strings only: cannot fail
		b.Write(enc)
		b.WriteByte('\n')
	}
	if header != nil {
		line(string(headerMarker), header)
	}
	for _, r := range rows {
		line("", r)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// ReadRowRecords reads a table written as row records: its header (nil when
// none was written) and rows. ok is false when data is not row records (a
// command's own text view).
func ReadRowRecords(data []byte) (header []string, rows [][]string, ok bool) {
	if len(data) == 0 || data[0] != recordSep {
		return nil, nil, false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] != recordSep {
			return nil, nil, false
		}
		line = line[1:]
		isHeader := len(line) > 0 && line[0] == headerMarker
		if isHeader {
			line = line[1:]
		}
		var cells []string
		if json.Unmarshal(line, &cells) != nil {
			return nil, nil, false
		}
		if isHeader {
			header = cells
		} else {
			rows = append(rows, cells)
		}
	}
	return header, rows, sc.Err() == nil
}
