package bisform

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/storectl/storectl/internal/api/shop"
)

// Input is one submission as the user gave it: the core values and the
// --field pairs (or file columns) naming fields by id or label.
type Input struct {
	Email     string
	ProductID string
	VariantID string
	Phone     string
	Locale    string
	Note      string
	Fields    []Pair
}

// Pair is a KEY=VALUE given for a field.
type Pair struct {
	Key   string
	Value string
}

// ParsePair splits a --field argument at its first "=".
func ParsePair(s string) (Pair, error) {
	key, value, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(key) == "" {
		return Pair{}, fmt.Errorf("--field %q is not ID_OR_LABEL=VALUE", s)
	}
	return Pair{Key: strings.TrimSpace(key), Value: value}, nil
}

// Build validates in against the form and returns the create request. Any
// local failure returns a *ValidationError naming every problem, with the
// server's message for each: nothing should be sent then.
//
// selectVariant, email and phone fields map to the top-level parameters;
// every other field goes into content by id, with keyLabel holding the
// plain labels of the fields sent so that the admin and exports show names,
// not ids.
func (f *Form) Build(in Input) (*shop.BISCreateRequest, error) {
	errs := &ValidationError{}
	b := builder{form: f, errs: errs, in: in, values: map[string]string{}}
	for _, p := range in.Fields {
		b.pair(p)
	}
	req := &shop.BISCreateRequest{Locale: strings.TrimSpace(b.in.Locale)}
	if strings.TrimSpace(b.in.Note) != "" {
		req.Note = b.in.Note
	}
	b.core(req)
	req.Content = b.content()
	if err := errs.orNil(); err != nil {
		return nil, err
	}
	return req, nil
}

type builder struct {
	form   *Form
	errs   *ValidationError
	in     Input
	values map[string]string // custom field id → value as given
	source string
}

// pair routes one KEY=VALUE to a core parameter or a content value.
func (b *builder) pair(p Pair) {
	if b.reserved(p.Key, p) {
		return
	}
	field, err := b.form.Lookup(p.Key)
	if err != nil {
		var problem *Problem
		if !errors.As(err, &problem) {
			problem = &Problem{Key: p.Key, Message: err.Error()}
		}
		b.errs.add(problem)
		return
	}
	if b.reserved(field.ID, p) {
		return
	}
	switch field.Type {
	case shop.FieldEmail:
		b.setCore("email", &b.in.Email, p.Value)
	case shop.FieldPhone:
		b.setCore("phone", &b.in.Phone, p.Value)
	case shop.FieldSelectVariant:
		product, variant, hasProduct := strings.Cut(p.Value, ":")
		if !hasProduct {
			product, variant = "", p.Value
		} else {
			b.setCore("product-id", &b.in.ProductID, product)
		}
		b.setCore("variant-id", &b.in.VariantID, variant)
	default:
		prev, seen := b.values[field.ID]
		switch {
		case !seen:
			b.values[field.ID] = p.Value
		case field.Type == shop.FieldCheckbox:
			// Repeating a checkbox field ticks one more box.
			b.values[field.ID] = prev + "," + p.Value
		case prev != p.Value:
			b.errs.addf(field.ID, fmt.Sprintf("field %s is given twice (%q and %q)", field.ID, prev, p.Value), "give each field once")
		}
	}
}

// reserved handles the content keys the server keeps without a field:
// source is the user's to set, keyLabel is built from the form.
func (b *builder) reserved(key string, p Pair) bool {
	switch key {
	case keySource:
		b.source = p.Value
		return true
	case keyKeyLabel:
		b.errs.addf(p.Key, "keyLabel is filled in from the form's labels", "leave keyLabel out")
		return true
	}
	return false
}

// setCore fills a top-level value from a --field, refusing a second,
// different value.
func (b *builder) setCore(name string, dst *string, value string) {
	value = strings.TrimSpace(value)
	if *dst != "" && strings.TrimSpace(*dst) != value {
		b.errs.addf(name, fmt.Sprintf("%s is given twice (%q and %q)", name, strings.TrimSpace(*dst), value), "give it once, as --"+name+" or as a field")
		return
	}
	*dst = value
}

func (b *builder) core(req *shop.BISCreateRequest) {
	if email, p := CheckEmail(b.in.Email); p != nil {
		b.errs.add(p)
	} else {
		req.CustomerEmail = email
	}
	product, variant := strings.TrimSpace(b.in.ProductID), strings.TrimSpace(b.in.VariantID)
	if product == "" || variant == "" {
		b.errs.addf("product-id", msgIDsRequired, "pass --product-id and --variant-id (numeric ids)")
	} else {
		for _, id := range []struct {
			param, value string
			dst          *json.Number
		}{{"product_id", product, &req.ProductID}, {"variant_id", variant, &req.VariantID}} {
			if v, p := CheckID(id.param, id.value); p != nil {
				b.errs.add(p)
			} else {
				*id.dst = json.Number(v)
			}
		}
	}
	phone, p := CheckPhone(b.in.Phone)
	if p != nil {
		b.errs.add(p)
	}
	req.CustomerPhone = phone
	for _, field := range b.form.Fields {
		if field.Type == shop.FieldPhone && field.Required.Value && !field.Hidden.Value && phone == "" && p == nil {
			b.errs.addf("phone", requiredMessage(field), "pass --phone +CCNNN")
		}
	}
}

// content checks every custom field in form order and builds the object.
func (b *builder) content() *shop.BISContent {
	c := &shop.BISContent{Source: b.source}
	done := map[string]bool{}
	for _, field := range b.form.CustomFields() {
		// A field reusing a reserved key or an earlier field's id cannot
		// have a content key of its own.
		if field.ID == keySource || field.ID == keyKeyLabel || done[field.ID] {
			continue
		}
		done[field.ID] = true
		value, p := CheckValue(field, b.values[field.ID])
		switch {
		case p != nil:
			b.errs.add(p)
		case value == "":
			if field.Required.Value && !field.Hidden.Value {
				b.errs.add(&Problem{Key: field.ID, Message: requiredMessage(field), Hint: requiredHint(field)})
			}
		default:
			c.Values = append(c.Values, shop.ContentEntry{Key: field.ID, Value: value})
			c.KeyLabel = append(c.KeyLabel, shop.ContentEntry{Key: field.ID, Value: Label(field)})
		}
	}
	if len(c.Values) == 0 && c.Source == "" {
		return nil
	}
	return c
}

func requiredHint(f shop.FormField) string {
	hint := fmt.Sprintf("pass --field %s=VALUE (%s)", f.ID, Describe(f))
	if f.DefaultValue != nil && *f.DefaultValue != "" {
		hint += fmt.Sprintf("; the form's default is %q", *f.DefaultValue)
	}
	return hint
}
