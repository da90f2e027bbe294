package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	api "github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// productColumns are the table and CSV columns of a product list. Prices
// are the variants' lowest and highest, which already reflect the
// request's rate and adjustment.
func productColumns() []output.Column {
	// On a narrow terminal the tags, type and vendor give way to the title,
	// price and availability.
	return []output.Column{
		{Key: "id"},
		{Key: "title"},
		{Key: "vendor", Drop: 3},
		{Key: "product_type", Header: "TYPE", Drop: 2},
		{Key: "price", Value: func(o output.Object) string { return priceText(decoded(o)) }},
		{Key: "available", Value: func(o output.Object) string { return availableText(decoded(o)) }},
		{Key: "tags", Value: tagsText, Data: tagsText, Drop: 1},
	}
}

// tagsText lists the tags, comma-separated, in the table and in CSV alike.
func tagsText(o output.Object) string {
	if tags := decoded(o).Tags; tags != nil {
		return strings.Join(tags, ", ")
	}
	return o.String("tags")
}

// decoded reads a product's displayed fields; a document this client cannot
// read shows its raw values in the other columns and blanks here.
func decoded(o output.Object) api.Product {
	p, _ := api.DecodeProduct(o.Raw())
	return p
}

func priceText(p api.Product) string {
	lo, hi, ok := p.PriceRange()
	switch {
	case !ok:
		return ""
	case lo == hi:
		return lo
	}
	return lo + "–" + hi
}

func availableText(p api.Product) string {
	available, known := p.IsAvailable()
	switch {
	case !known:
		return ""
	case available:
		return "yes"
	}
	return "no"
}

// renderOptions writes the filter options as one table: a row per value
// (per range for a Price option), the option's label and key on its first
// row. key is what --filter (or, for a vehicle finder form, --form) takes.
func renderOptions(w io.Writer, ios *iostreams.IOStreams, options []api.FilterOption, form bool) error {
	var rows [][]string
	for _, opt := range options {
		name, key := opt.Label, optionKey(opt, form)
		before := len(rows)
		first := true
		add := func(label string, cells ...string) {
			row := []string{"", ""}
			if first {
				row = []string{label, key}
			}
			rows = append(rows, append(row, cells...))
			first = false
		}
		for _, v := range opt.Values {
			label := v.Label
			if label == string(v.Value) {
				label = "" // said once is enough
			}
			add(name, string(v.Value), label, countText(v.Count.Value, v.Count.Valid), tick(v.Selected.Value))
		}
		for _, r := range opt.Ranges {
			add(name, rangeCells(r)...)
		}
		if len(opt.PresentmentRanges) > 0 && !sameRanges(opt.Ranges, opt.PresentmentRanges) {
			first = true
			for _, r := range opt.PresentmentRanges {
				add(name+" (presentment)", rangeCells(r)...)
			}
		}
		if len(rows) == before {
			add(name, "", "", "", "")
		}
	}
	return output.RenderTable(w, ios, []string{"FILTER", "KEY", "VALUE", "LABEL", "COUNT", "SELECTED"}, rows)
}

// optionKey is the key a selection is sent under: a form field by its id,
// a filter option by its handle (the id works too).
func optionKey(opt api.FilterOption, form bool) string {
	if form || opt.Handle == "" {
		return opt.ID.String()
	}
	return opt.Handle
}

// rangeCells shows one price range. The spec leaves its structure open: a
// {value, from, to, count, selected} object is shown as such, anything
// else as its JSON.
func rangeCells(raw json.RawMessage) []string {
	o, err := output.ParseObject(raw)
	if err != nil || o.Keys() == nil {
		return []string{string(bytes.TrimSpace(raw)), "", "", ""}
	}
	label := o.String("label")
	if from, to := o.String("from"), o.String("to"); label == "" && (from != "" || to != "") {
		switch {
		case to == "":
			label = from + " and up"
		default:
			label = from + "–" + to
		}
	}
	value := o.String("value")
	if value == "" && label == "" {
		value = o.String("")
	}
	selected, _ := strconv.ParseBool(o.String("selected"))
	return []string{value, label, o.String("count"), tick(selected)}
}

func sameRanges(a, b []json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(bytes.TrimSpace(a[i]), bytes.TrimSpace(b[i])) {
			return false
		}
	}
	return true
}

func countText(n int64, valid bool) string {
	if !valid {
		return ""
	}
	return strconv.FormatInt(n, 10)
}

func tick(b bool) string {
	if b {
		return "✓"
	}
	return ""
}

// keywordList joins keywords for one line: "rain jacket, merino".
func keywordList(ks []api.Keyword) string {
	words := make([]string, 0, len(ks))
	for _, k := range ks {
		if k.Keyword != "" {
			words = append(words, k.Keyword)
		}
	}
	return strings.Join(words, ", ")
}

// renderCollections writes matched collections; the spec leaves their
// fields open, so the usual id, handle and title are read where present.
func renderCollections(w io.Writer, ios *iostreams.IOStreams, collections []json.RawMessage) error {
	rows := make([][]string, 0, len(collections))
	for _, raw := range collections {
		o, err := output.ParseObject(raw)
		if err != nil {
			return fmt.Errorf("collection: %w", err)
		}
		rows = append(rows, []string{o.String("id"), o.String("handle"), o.String("title")})
	}
	return output.RenderTable(w, ios, []string{"ID", "HANDLE", "TITLE"}, rows)
}
