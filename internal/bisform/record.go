package bisform

import "strings"

// RecordInput turns one row of an import file into an Input. Columns named
// like create's flags (email, product-id, variant-id, phone, locale, note;
// with _ or -, in any case) or like the API parameters (customer_email,
// customer_phone, product_id, variant_id) fill the core values; every other
// column names a field by id or label. Empty cells count as not given.
func RecordInput(row []Pair) Input {
	var in Input
	for _, p := range row {
		if strings.TrimSpace(p.Value) == "" {
			continue
		}
		if dst := coreTarget(&in, p.Key); dst != nil {
			*dst = p.Value
			continue
		}
		in.Fields = append(in.Fields, p)
	}
	return in
}

func coreTarget(in *Input, column string) *string {
	switch strings.ReplaceAll(strings.ToLower(strings.TrimSpace(column)), "_", "-") {
	case "email", "customer-email":
		return &in.Email
	case "product-id":
		return &in.ProductID
	case "variant-id":
		return &in.VariantID
	case "phone", "customer-phone":
		return &in.Phone
	case "locale":
		return &in.Locale
	case "note":
		return &in.Note
	}
	return nil
}
