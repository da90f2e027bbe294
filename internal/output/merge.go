package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// StoreResults is what one store's run of a read over several stores
// printed (Collector.Parts), named by its profile.
type StoreResults struct {
	Profile string
	Parts   []Part
}

// CaptureFormat is the format each store's run of a read over several
// stores uses, so that its Collector holds what MergeStores needs for p's
// format: JSON for yaml and --jq (which runs on the whole), else p's own.
func (p *Printer) CaptureFormat() Format {
	if p.jq != nil || p.format == YAML {
		return JSON
	}
	return p.format
}

// MergeStores prints the results of one read run over several stores, in
// the order given, as one result:
//   - json, yaml and --jq: an array of {"profile": NAME, "data": …}, where
//     data is what the one-store command prints (a list's array, a single
//     value; an array of them when the run printed several);
//   - ndjson: one {"profile": NAME, "item": …} per line the one-store
//     command prints;
//   - table, csv, and any other format that prints rows (printRows): the
//     stores' rows as one list led by a profile column; in a table, a
//     command's own view (a get's sheet) goes under a heading per store
//     instead.
//
// --fields applied in each store's run already, so it is not applied again.
func (p *Printer) MergeStores(stores []StoreResults) error {
	whole := *p
	whole.fields = nil
	switch {
	case p.jq != nil || p.format == JSON || p.format == YAML:
		return whole.mergeJSON(stores)
	case p.format == NDJSON:
		return whole.mergeNDJSON(stores)
	case p.format == Table && slices.ContainsFunc(stores, hasView):
		return whole.mergeViews(stores)
	}
	rows, cols, err := mergedRows(stores)
	if err != nil || len(rows) == 0 && len(cols) < 2 {
		return err // nothing printed by any store prints nothing
	}
	whole.sheet, whole.store = workbookOf(stores)
	return whole.printRows(rows, cols)
}

// workbookOf is what a merged workbook says it holds: the stores' sheet
// name, and each profile's store ("eu=https://eu.example.com, us=…").
func workbookOf(stores []StoreResults) (sheet, store string) {
	var each []string
	for _, s := range stores {
		for _, part := range s.Parts {
			if sheet == "" {
				sheet = part.Sheet
			}
			if part.Store != "" {
				each = append(each, s.Profile+"="+part.Store)
				break
			}
		}
	}
	return sheet, strings.Join(each, ", ")
}

func (p *Printer) mergeJSON(stores []StoreResults) error {
	if p.jq == nil && p.format == JSON && !p.ios.ColorEnabled {
		return p.streamMergedJSON(stores)
	}
	items := make([]json.RawMessage, 0, len(stores))
	for _, s := range stores {
		data, err := p.storeData(s)
		if err != nil {
			return err
		}
		items = append(items, tagged(s.Profile, "data", data))
	}
	return p.List(items, nil)
}

// streamMergedJSON is mergeJSON's -o json written one store at a time,
// each store's results let go once written: a merge of hundreds of stores
// holds their results once, never a second copy of them all. Every store
// is checked before anything is written.
func (p *Printer) streamMergedJSON(stores []StoreResults) error {
	for i, s := range stores {
		if err := checkStoreData(i, s); err != nil {
			return err
		}
	}
	return streamJSONValues(p.ios.Out, len(stores), func(i int) (json.RawMessage, error) {
		data, err := p.storeData(stores[i])
		if err != nil {
			return nil, err
		}
		stores[i].Parts = nil
		return tagged(stores[i].Profile, "data", data), nil
	})
}

// checkStoreData fails as storeData and printing the i-th store's value
// would, without making it.
func checkStoreData(i int, s StoreResults) error {
	for _, part := range s.Parts {
		switch {
		case part.Text != nil:
			if text := bytes.TrimSpace(part.Text); len(text) > 0 && !json.Valid(text) {
				return fmt.Errorf("profile %s: the output is not JSON", s.Profile)
			}
		case part.Single:
			if err := validItem(i, part.Items[0]); err != nil {
				return err
			}
		default:
			for j, item := range part.Items {
				if err := validItem(j, item); err != nil {
					return fmt.Errorf("profile %s: %w", s.Profile, err)
				}
			}
		}
	}
	return nil
}

// storeData is the JSON one store's run would have printed: null for
// nothing, one value, or an array of the values it printed.
func (p *Printer) storeData(s StoreResults) (json.RawMessage, error) {
	var values []json.RawMessage
	for _, part := range s.Parts {
		switch {
		case part.Text != nil:
			text := bytes.TrimSpace(part.Text)
			if len(text) == 0 {
				continue
			}
			if !json.Valid(text) {
				return nil, fmt.Errorf("profile %s: the output is not JSON", s.Profile)
			}
			values = append(values, text)
		case part.Single:
			values = append(values, part.Items[0])
		default:
			arr, err := p.array(part.Items, nil)
			if err != nil {
				return nil, fmt.Errorf("profile %s: %w", s.Profile, err)
			}
			values = append(values, arr)
		}
	}
	switch len(values) {
	case 0:
		return json.RawMessage("null"), nil
	case 1:
		return values[0], nil
	}
	return p.array(values, nil)
}

func (p *Printer) mergeNDJSON(stores []StoreResults) error {
	var b bytes.Buffer
	for _, s := range stores {
		for _, part := range s.Parts {
			lines := part.Items
			if part.Text != nil {
				lines = textLines(part.Text)
			}
			for _, line := range lines {
				var item bytes.Buffer
				if err := compactJSON(&item, line); err != nil {
					return fmt.Errorf("profile %s: a line of the output is not JSON", s.Profile)
				}
				b.Write(tagged(s.Profile, "item", item.Bytes()))
				b.WriteByte('\n')
			}
		}
	}
	_, err := p.ios.Out.Write(b.Bytes())
	return err
}

// textLines are the non-blank lines of text.
func textLines(text []byte) []json.RawMessage {
	var lines []json.RawMessage
	for _, line := range bytes.Split(text, []byte("\n")) {
		if line = bytes.TrimSpace(line); len(line) > 0 {
			lines = append(lines, line)
		}
	}
	return lines
}

// tagged is {"profile": NAME, key: value}.
func tagged(profile, key string, value []byte) json.RawMessage {
	name, _ := json.Marshal(profile) // a string: cannot fail
	var b bytes.Buffer
	b.WriteString(`{"profile":`)
	b.Write(name)
	b.WriteString(`,"` + key + `":`)
	b.Write(value)
	b.WriteByte('}')
	return b.Bytes()
}

// hasView reports a store whose run printed something other than rows: a
// single value's own view, or text.
func hasView(s StoreResults) bool {
	return slices.ContainsFunc(s.Parts, func(p Part) bool {
		return p.Single || len(bytes.TrimSpace(p.Text)) > 0
	})
}

// mergeViews prints each store's results under a heading: its tables, its
// own views and its text, in the order printed.
func (p *Printer) mergeViews(stores []StoreResults) error {
	b := &pageBuffer{stdout: p.ios.Out}
	for i, s := range stores {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(b, "── %s ──\n", cellText(s.Profile))
		for _, part := range s.Parts {
			if err := p.writeView(b, part); err != nil {
				return fmt.Errorf("profile %s: %w", s.Profile, err)
			}
		}
	}
	return p.page(b.Bytes())
}

func (p *Printer) writeView(b *pageBuffer, part Part) error {
	switch {
	case part.Text != nil:
		b.Write(part.Text)
	case part.View != nil:
		b.Write(part.View)
	default:
		objects, err := parseAll(part.Items)
		if err != nil {
			return err
		}
		_, err = p.writeTable(b, part.Cols, objects)
		return err
	}
	return nil
}
