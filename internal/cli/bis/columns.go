package bis

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/bisform"
	"github.com/storectl/storectl/internal/output"
)

// listColumns are the submission list's columns. The terminal gets a
// narrow, readable table; CSV gets every list field with its raw value, for
// spreadsheets and mailing tools.
func listColumns(terminal bool) []output.Column {
	if terminal {
		// On a narrow terminal the SKU, phone, variant and date give way
		// (in that order) to the customer and the product.
		created := output.HumanTimeColumn("created_at", "CREATED", time.Local)
		created.Drop = 4
		return []output.Column{
			{Key: "id"},
			{Key: "customer_email", Header: "EMAIL"},
			{Key: "customer_phone", Header: "PHONE", Drop: 2},
			{Key: "product_title", Header: "PRODUCT"},
			{Key: "variant_title", Header: "VARIANT", Drop: 3},
			{Key: "sku", Header: "SKU", Drop: 1},
			{Key: "status", Value: func(o output.Object) string { return shortStatus(o.String("status")) }},
			created,
		}
	}
	// Kinds type a workbook's cells: a phone or SKU is text even if a
	// server sends it as a number (ids and times are typed by their keys).
	text := output.KindText
	data := []output.Column{
		{Key: "id"}, {Key: "product_id"}, {Key: "variant_id"}, {Key: "customer_email", Kind: text}, {Key: "customer_phone", Kind: text},
		{Key: "product_title", Kind: text}, {Key: "variant_title", Kind: text}, {Key: "sku", Kind: text}, {Key: "status", Kind: output.KindNumber},
		{Key: "created_at"}, {Key: "updated_at"},
	}
	// --fields may name a column by the header people see in the table.
	for i := range data {
		for _, t := range listColumns(true) {
			if t.Key == data[i].Key && t.Header != "" {
				data[i].Aliases = append(data[i].Aliases, t.Header)
			}
		}
	}
	return data
}

// detailColumns are what export --details adds: the detail fields, then
// one column per custom field of the form, headed by its label.
func detailColumns(terminal bool, form *bisform.Form) []output.Column {
	// An e-mail event is 0 or when it happened: at a terminal "no" or the
	// time; in CSV an empty cell or the time (see output.SpreadsheetTime).
	event := func(key string) output.Column {
		return output.Column{Key: key, Kind: output.KindShopTime,
			Value: func(o output.Object) string { return eventText(o.String(key), time.Local) }}
	}
	cols := []output.Column{
		{Key: "inventory_id"}, {Key: "last_sent"}, {Key: "unsubscribe", Kind: output.KindBool}, {Key: "locale", Kind: output.KindText},
		event("opened"), event("clicked"), {Key: "note", Kind: output.KindText},
	}
	if terminal {
		cols[2].Value = yesNo("unsubscribe")
	}
	taken := map[string]bool{}
	for _, c := range listColumns(false) {
		taken[c.Key] = true
	}
	for _, c := range cols {
		taken[c.Key] = true
	}
	content := &contentCache{}
	for _, field := range form.CustomFields() {
		key := bisform.Label(field)
		if taken[key] {
			key += " (" + field.ID + ")"
		}
		taken[key] = true
		id := field.ID
		cols = append(cols, output.Column{Key: key, Header: key, Aliases: []string{id}, Kind: output.KindText,
			Value: func(o output.Object) string { return content.value(o, id) }})
	}
	// content.source says where the customer signed up (storefront, quick
	// view, api): no form field, but part of what was stored.
	source := "source"
	if taken[source] {
		source = "source (content)"
	}
	cols = append(cols, output.Column{Key: source, Header: strings.ToUpper(source), Value: content.source})
	if terminal {
		// A narrow terminal leaves out the details from the last, after the
		// list's own secondary columns (Drop 1 to 4).
		for i := range cols {
			cols[i].Drop = 4 + len(cols) - i
		}
	}
	return cols
}

// contentCache decodes a row's content once for all its custom columns.
type contentCache struct {
	raw     json.RawMessage // held, so its bytes cannot be reused under us
	decoded *bisform.Content
}

func (c *contentCache) value(o output.Object, id string) string {
	if decoded := c.of(o); decoded != nil {
		v, _ := decoded.Value(id)
		return v
	}
	return ""
}

func (c *contentCache) source(o output.Object) string {
	if decoded := c.of(o); decoded != nil {
		return decoded.Source
	}
	return ""
}

func (c *contentCache) of(o output.Object) *bisform.Content {
	raw, _ := o.Get("content")
	if c.raw == nil || !bytes.Equal(raw, c.raw) {
		c.raw = raw
		c.decoded, _ = bisform.DecodeContent(raw)
	}
	return c.decoded
}

func shortStatus(s string) string {
	switch s {
	case "0":
		return "pending"
	case "1":
		return "sent"
	}
	return s
}
