package output

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
)

// StoreOutput is what a read run printed for one store, in the format
// CaptureFormat chose.
type StoreOutput struct {
	Profile string
	Out     []byte
}

// CaptureFormat is the format in which each store's run of a read over
// several stores prints, for MergeStores to combine into p's format: JSON
// for json, yaml and --jq (which runs on the whole), else p's own.
func (p *Printer) CaptureFormat() Format {
	if p.jq != nil || p.format == YAML {
		return JSON
	}
	return p.format
}

// MergeStores prints the outputs of one read run over several stores, in
// the order given, as one result:
//   - json, yaml and --jq: an array of {"profile": NAME, "data": …}, where
//     data is exactly what the store's run printed (its bytes unchanged);
//   - ndjson: one {"profile": NAME, "item": …} per line the store printed;
//   - csv and table: the stores' rows under one header led by a profile
//     column; a command's own view (a get's sheet) under a heading per
//     store instead.
//
// --fields applied in each store's run already, so it is not applied again.
func (p *Printer) MergeStores(outs []StoreOutput) error {
	switch p.CaptureFormat() {
	case JSON:
		return p.mergeJSON(outs)
	case NDJSON:
		return mergeNDJSON(p.ios.Out, outs)
	case CSV:
		return p.mergeCSV(outs)
	}
	return p.mergeTables(outs)
}

func (p *Printer) mergeJSON(outs []StoreOutput) error {
	items := make([]json.RawMessage, 0, len(outs))
	for _, o := range outs {
		data := bytes.TrimSpace(o.Out)
		if len(data) == 0 {
			data = []byte("null")
		}
		if !json.Valid(data) {
			return fmt.Errorf("profile %s: the output is not JSON", o.Profile)
		}
		var b bytes.Buffer
		name, _ := json.Marshal(o.Profile)
		b.WriteString(`{"profile":`)
		b.Write(name)
		b.WriteString(`,"data":`)
		b.Write(data)
		b.WriteByte('}')
		items = append(items, b.Bytes())
	}
	whole := *p
	whole.fields = nil
	return whole.List(items, nil)
}

func mergeNDJSON(w io.Writer, outs []StoreOutput) error {
	var b bytes.Buffer
	for _, o := range outs {
		name, _ := json.Marshal(o.Profile)
		for _, line := range bytes.Split(o.Out, []byte("\n")) {
			if line = bytes.TrimSpace(line); len(line) == 0 {
				continue
			}
			if !json.Valid(line) {
				return fmt.Errorf("profile %s: a line of the output is not JSON", o.Profile)
			}
			b.WriteString(`{"profile":`)
			b.Write(name)
			b.WriteString(`,"item":`)
			b.Write(line)
			b.WriteString("}\n")
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// mergeCSV joins the stores' CSV (each with its header, unguarded) under one
// header: profile, then every column any store had, in first-seen order.
func (p *Printer) mergeCSV(outs []StoreOutput) error {
	type table struct {
		profile string
		header  []string
		rows    [][]string
	}
	var tables []table
	var header []string
	for _, o := range outs {
		if len(bytes.TrimSpace(o.Out)) == 0 {
			continue
		}
		recs, err := csv.NewReader(bytes.NewReader(o.Out)).ReadAll()
		if err != nil {
			return fmt.Errorf("profile %s: %w", o.Profile, err)
		}
		if len(recs) == 0 {
			continue
		}
		t := table{profile: o.Profile, header: recs[0], rows: recs[1:]}
		for _, h := range t.header {
			if !slices.Contains(header, h) {
				header = append(header, h)
			}
		}
		tables = append(tables, t)
	}
	w := NewCSVWriter(p.ios.Out, p.csv)
	if !p.noHeaders && header != nil {
		if err := w.Write(append([]string{"profile"}, header...)); err != nil {
			return err
		}
	}
	for _, t := range tables {
		for _, r := range t.rows {
			if err := w.Write(append([]string{t.profile}, align(header, t.header, r)...)); err != nil {
				return err
			}
		}
	}
	return w.Flush()
}

// align puts a row's cells, named by its own header, in the order of the
// merged header.
func align(merged, own, row []string) []string {
	out := make([]string, len(merged))
	for i, h := range own {
		if j := slices.Index(merged, h); j >= 0 && i < len(row) {
			out[j] = row[i]
		}
	}
	return out
}

// mergeTables joins the stores' tables under one header led by PROFILE;
// when a store printed a view of its own rather than a table, each store's
// output goes under a heading.
func (p *Printer) mergeTables(outs []StoreOutput) error {
	var header []string
	var rows [][]string
	for _, o := range outs {
		if len(bytes.TrimSpace(o.Out)) == 0 {
			continue
		}
		h, r, ok := ReadRowRecords(o.Out)
		if !ok {
			return p.mergeViews(outs)
		}
		for _, name := range h {
			if !slices.Contains(header, name) {
				header = append(header, name)
			}
		}
		for _, cells := range r {
			rows = append(rows, append([]string{o.Profile}, align(header, h, cells)...))
		}
	}
	if len(rows) == 0 {
		return nil
	}
	for i := range rows { // rows read before a later store widened the header
		if n := len(header) + 1; len(rows[i]) < n {
			rows[i] = append(rows[i], make([]string, n-len(rows[i]))...)
		}
	}
	var h []string
	if !p.noHeaders {
		h = append([]string{"PROFILE"}, header...)
	}
	out := &pageBuffer{stdout: p.ios.Out}
	if err := RenderTable(out, p.ios, h, rows); err != nil {
		return err
	}
	return p.page(out.Bytes())
}

// mergeViews prints each store's own view under a heading.
func (p *Printer) mergeViews(outs []StoreOutput) error {
	b := &pageBuffer{stdout: p.ios.Out}
	for i, o := range outs {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(b, "── %s ──\n", cellText(o.Profile))
		if header, rows, ok := ReadRowRecords(o.Out); ok {
			if err := RenderTable(b, p.ios, header, rows); err != nil {
				return err
			}
			continue
		}
		b.Write(o.Out)
	}
	return p.page(b.Bytes())
}
