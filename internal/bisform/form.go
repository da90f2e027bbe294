// Package bisform is the back-in-stock form model: it turns what a user
// typed (flags, a file row, prompt answers) into a create request for the
// merchant's form, validating it locally with the server's own rules and
// messages so that nothing the server would refuse or silently drop is
// sent. It does no I/O.
package bisform

import (
	"fmt"
	"html"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/storectl/storectl/internal/api/shop"
)

// Form is the merchant's form definition.
type Form struct {
	Fields []shop.FormField
}

// New wraps the fetched fields.
func New(fields []shop.FormField) *Form { return &Form{Fields: fields} }

// Content keys the server keeps although no field has them.
const (
	keySource   = "source"
	keyKeyLabel = "keyLabel"
)

var (
	htmlTag    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<[^>]*>`) })
	whitespace = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s+`) })
)

// PlainLabel is a label as text: HTML tags stripped, entities decoded and
// whitespace collapsed. The server quotes labels this way in its messages.
func PlainLabel(label string) string {
	text := html.UnescapeString(htmlTag().ReplaceAllString(label, ""))
	return strings.TrimSpace(whitespace().ReplaceAllString(text, " "))
}

// Label is the field's plain label, or its id when the label is empty.
func Label(f shop.FormField) string {
	if l := PlainLabel(f.Label); l != "" {
		return l
	}
	return f.ID
}

// IsCore reports the fields whose values travel as top-level parameters
// (product_id and variant_id, customer_email, customer_phone), not in
// content.
func IsCore(f shop.FormField) bool {
	switch f.Type {
	case shop.FieldSelectVariant, shop.FieldEmail, shop.FieldPhone:
		return true
	}
	return false
}

// CustomFields are the fields whose values go into content, in form order.
func (f *Form) CustomFields() []shop.FormField {
	var out []shop.FormField
	for _, field := range f.Fields {
		if !IsCore(field) {
			out = append(out, field)
		}
	}
	return out
}

// Lookup finds a field by its id, else by its label compared without case
// (the plain text or the label as sent).
func (f *Form) Lookup(key string) (shop.FormField, error) {
	for _, field := range f.Fields {
		if field.ID == key {
			return field, nil
		}
	}
	want := strings.TrimSpace(key)
	var matches []shop.FormField
	for _, field := range f.Fields {
		if want != "" && (strings.EqualFold(PlainLabel(field.Label), PlainLabel(want)) || strings.EqualFold(field.Label, want)) {
			matches = append(matches, field)
		}
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		return shop.FormField{}, &Problem{Key: key,
			Message: fmt.Sprintf("no field of the form has the id or label %q (the server would silently drop it)", key),
			Hint:    "valid field ids: " + strings.Join(f.ids(), ", ") + " (see `storectl bis form`; add --refresh if the store's form changed)"}
	default:
		ids := make([]string, len(matches))
		for i, m := range matches {
			ids[i] = m.ID
		}
		return shop.FormField{}, &Problem{Key: key,
			Message: fmt.Sprintf("the label %q matches more than one field (%s)", key, strings.Join(ids, ", ")),
			Hint:    "name the field by its id"}
	}
}

// ids lists the ids a user can name: every field and the reserved source.
func (f *Form) ids() []string {
	ids := make([]string, 0, len(f.Fields)+1)
	for _, field := range f.Fields {
		ids = append(ids, field.ID)
	}
	return append(ids, keySource)
}

// Describe is one line telling what a field accepts, for hints and prompts.
func Describe(f shop.FormField) string {
	switch f.Type {
	case shop.FieldSelect, shop.FieldRadio:
		return "one of: " + strings.Join(f.Options, ", ")
	case shop.FieldCheckbox:
		return "a comma-separated list of: " + strings.Join(f.Options, ", ")
	case shop.FieldAcceptTerms:
		return "true to accept"
	case shop.FieldPhone:
		return "+ and digits, such as +16025550123"
	case shop.FieldSelectVariant:
		return "the variant id, or PRODUCT_ID:VARIANT_ID"
	}
	return "text"
}

func isOption(f shop.FormField, v string) bool { return slices.Contains(f.Options, v) }
