package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/storectl/storectl/internal/api/flex"
)

// Pagination is the pagination object of filter and search responses.
type Pagination struct {
	From         flex.Int  `json:"from"`
	To           flex.Int  `json:"to"`
	Total        flex.Int  `json:"total"`
	PerPage      flex.Int  `json:"per_page"`
	CurrentPage  flex.Int  `json:"current_page"`
	LastPage     flex.Int  `json:"last_page"`
	HasMorePages flex.Bool `json:"hasMorePages"`
}

// Product is the part of a product document the table view shows. The
// document itself is kept raw; the spec lists more fields ("options,
// images, metafields and similar") that are printed only as sent.
type Product struct {
	ID          flex.ID   `json:"id"`
	Handle      string    `json:"handle"`
	Title       string    `json:"title"`
	Vendor      string    `json:"vendor"`
	ProductType string    `json:"product_type"`
	Tags        Tags      `json:"tags"`
	Variants    []Variant `json:"variants"`
	// Available is the product's own flag, when the document has one.
	Available flex.Bool `json:"available"`
}

// Variant is the part of a variant the table view shows. Its price already
// reflects the request's rate and adjustment.
type Variant struct {
	ID        flex.ID   `json:"id"`
	Title     string    `json:"title"`
	Price     Scalar    `json:"price"`
	Available flex.Bool `json:"available"`
}

// DecodeProduct reads the displayed fields of one product document.
func DecodeProduct(raw json.RawMessage) (Product, error) {
	var p Product
	if err := json.Unmarshal(raw, &p); err != nil {
		return Product{}, fmt.Errorf("product document: %w", err)
	}
	return p, nil
}

// PriceRange returns the lowest and highest variant price as sent ("59.00",
// "64.00"); ok is false when no variant has a numeric price.
func (p Product) PriceRange() (lo, hi string, ok bool) {
	var loV, hiV *big.Rat
	for _, v := range p.Variants {
		r, valid := new(big.Rat).SetString(strings.TrimSpace(string(v.Price)))
		if !valid {
			continue
		}
		if loV == nil || r.Cmp(loV) < 0 {
			loV, lo = r, string(v.Price)
		}
		if hiV == nil || r.Cmp(hiV) > 0 {
			hiV, hi = r, string(v.Price)
		}
	}
	return lo, hi, loV != nil
}

// IsAvailable is the product's own available flag when sent, else whether
// any variant is available; known is false when neither says.
func (p Product) IsAvailable() (available, known bool) {
	if p.Available.Valid {
		return p.Available.Value, true
	}
	for _, v := range p.Variants {
		if v.Available.Valid {
			known = true
			if v.Available.Value {
				return true, true
			}
		}
	}
	return false, known
}

// Tags is a tag list sent as an array of strings or as one comma-separated
// string (the storefront's own product JSON uses both).
type Tags []string

func (t *Tags) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	*t = nil
	switch {
	case bytes.Equal(b, []byte("null")):
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		for _, tag := range strings.Split(s, ",") {
			if tag = strings.TrimSpace(tag); tag != "" {
				*t = append(*t, tag)
			}
		}
		return nil
	}
	var items []Scalar
	if err := json.Unmarshal(b, &items); err != nil {
		return fmt.Errorf("tags: want an array or a comma-separated string, got %.40s", b)
	}
	for _, s := range items {
		*t = append(*t, string(s))
	}
	return nil
}

// Scalar is any JSON scalar kept as text: a string unquoted, a number as
// its literal, a boolean as true/false, null as "". Prices ("19.99" or
// 19.99) and option values use it.
type Scalar string

func (s *Scalar) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
		return fmt.Errorf("empty value")
	case b[0] == '"':
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = Scalar(v)
	case bytes.Equal(b, []byte("null")):
		*s = ""
	case b[0] == '{' || b[0] == '[':
		return fmt.Errorf("want a string or number, got %.40s", b)
	default:
		*s = Scalar(b)
	}
	return nil
}

// Keyword is one entry of suggestions or popular_keywords: {keyword}, or a
// bare string.
type Keyword struct {
	Keyword string `json:"keyword"`
}

func (k *Keyword) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '{' {
		var v struct {
			Keyword Scalar `json:"keyword"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		k.Keyword = string(v.Keyword)
		return nil
	}
	var s Scalar
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("keyword: %w", err)
	}
	k.Keyword = string(s)
	return nil
}

// FilterOption is one filter option of a page. A Price option carries
// Ranges and PresentmentRanges instead of Values; the spec leaves their
// inner structure open, so they stay raw.
type FilterOption struct {
	ID                flex.ID           `json:"id"`
	Handle            string            `json:"handle"`
	Label             string            `json:"label"`
	Attribute         string            `json:"attribute"`
	Values            []FilterValue     `json:"values"`
	Ranges            []json.RawMessage `json:"ranges"`
	PresentmentRanges []json.RawMessage `json:"presentment_ranges"`
}

// FilterValue is one value of a filter option with its product count.
type FilterValue struct {
	Value    Scalar    `json:"value"`
	Label    string    `json:"label"`
	Count    flex.Int  `json:"count"`
	Selected flex.Bool `json:"selected"`
}

// BadResponse is a success answer whose shape breaks the contract.
type BadResponse struct {
	Path string
	Err  error
}

func (e *BadResponse) Error() string {
	return fmt.Sprintf("unexpected response from the catalog API's %s: %v", e.Path, e.Err)
}

func (e *BadResponse) Unwrap() error { return e.Err }
