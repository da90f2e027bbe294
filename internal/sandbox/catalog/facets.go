package catalog

import (
	"cmp"
	"maps"
	"slices"
	"strings"
)

// selection holds the values chosen per option of the tree in use, keyed by
// option id. Values within one option are ORed; options are ANDed.
type selection map[int64][]string

// selectionFrom resolves filter[<key>][] and form[<key>][] against the tree:
// a key is an option id or handle; keys naming no option of the tree are
// ignored, and price values that are not a from:to range are dropped.
func selectionFrom(tree filterTree, raw ...map[string][]string) selection {
	sel := selection{}
	for _, m := range raw {
		// Sorted keys keep the order of values stable when two keys (an id
		// and a handle) name the same option.
		for _, key := range slices.Sorted(maps.Keys(m)) {
			values := m[key]
			opt, ok := tree.option(key)
			if !ok {
				continue
			}
			for _, v := range values {
				if opt.attribute == attrPrice {
					if _, ok := parsePriceRange(v); !ok {
						continue
					}
				}
				if !slices.ContainsFunc(sel[opt.id], func(s string) bool { return strings.EqualFold(s, v) }) {
					sel[opt.id] = append(sel[opt.id], v)
				}
			}
		}
	}
	return sel
}

func (t filterTree) option(key string) (filterOption, bool) {
	for _, o := range t.options {
		if strings.EqualFold(o.handle, key) || formatID(o.id) == key {
			return o, true
		}
	}
	return filterOption{}, false
}

// matches reports whether p carries one of the selected values of opt.
func matches(p *Product, opt filterOption, values []string) bool {
	if opt.attribute == attrPrice {
		for _, v := range values {
			r, _ := parsePriceRange(v)
			for _, variant := range p.Variants {
				if r.contains(parseCents(variant.Price)) {
					return true
				}
			}
		}
		return false
	}
	for _, have := range productValues(p, opt) {
		for _, want := range values {
			if strings.EqualFold(have, want) {
				return true
			}
		}
	}
	return false
}

// productValues lists the facet values a product has for a non-price option.
func productValues(p *Product, opt filterOption) []string {
	switch opt.attribute {
	case attrAvailable:
		if available(p) {
			return []string{availableValue}
		}
		return []string{soldOutValue}
	case attrVendor:
		return []string{p.Vendor}
	case attrProductType:
		return []string{p.ProductType}
	case attrTag:
		return p.Tags
	}
	name := strings.TrimPrefix(opt.attribute, attrOptionPrefix)
	for _, o := range p.Options {
		if strings.EqualFold(o.Name, name) {
			return o.Values
		}
	}
	return nil
}

const (
	availableValue = "1"
	soldOutValue   = "0"
)

// facetState knows, for each product of the base set, which selected options
// it satisfies, so that every option's counts can be taken over the products
// matching all the other selected options (the usual facet behaviour: picking
// a colour does not zero the other colours' counts).
type facetState struct {
	tree     filterTree
	sel      selection
	base     []*Product
	satisfy  [][]bool // per base product, per tree option: passes that option's selection
	selected []bool   // per tree option: has a selection
}

func newFacetState(tree filterTree, sel selection, base []*Product) *facetState {
	fs := &facetState{tree: tree, sel: sel, base: base, selected: make([]bool, len(tree.options))}
	for i, o := range tree.options {
		fs.selected[i] = len(sel[o.id]) > 0
	}
	fs.satisfy = make([][]bool, len(base))
	for j, p := range base {
		row := make([]bool, len(tree.options))
		for i, o := range tree.options {
			row[i] = !fs.selected[i] || matches(p, o, sel[o.id])
		}
		fs.satisfy[j] = row
	}
	return fs
}

func (fs *facetState) hasFilter() bool { return slices.Contains(fs.selected, true) }

// result is the base products that pass every selection, in base order.
func (fs *facetState) result() []*Product {
	return fs.passingExcept(-1)
}

// passingExcept lists the base products passing every selection but that of
// option skip.
func (fs *facetState) passingExcept(skip int) []*Product {
	var out []*Product
	for j, p := range fs.base {
		ok := true
		for i, pass := range fs.satisfy[j] {
			if i != skip && !pass {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, p)
		}
	}
	return out
}

// filterOptionDoc is one filter option of the response: values for every
// attribute but price, which carries ranges and presentment_ranges.
type filterOptionDoc struct {
	ID                int64       `json:"id"`
	Handle            string      `json:"handle"`
	Label             string      `json:"label"`
	Attribute         string      `json:"attribute"`
	Values            *[]valueDoc `json:"values,omitempty"`
	Ranges            *[]rangeDoc `json:"ranges,omitempty"`
	PresentmentRanges *[]rangeDoc `json:"presentment_ranges,omitempty"`
}

type valueDoc struct {
	Value    string `json:"value"`
	Label    string `json:"label"`
	Count    int    `json:"count"`
	Selected bool   `json:"selected"`
}

// options renders every option of the tree. Values are those present in the
// base set (the page's products before any filter selection), each with the
// count of products matching it and every other selected option.
func (fs *facetState) options(pr pricing) []filterOptionDoc {
	docs := make([]filterOptionDoc, 0, len(fs.tree.options))
	for i, o := range fs.tree.options {
		doc := filterOptionDoc{ID: o.id, Handle: o.handle, Label: o.label, Attribute: o.attribute}
		counted := fs.passingExcept(i)
		if o.attribute == attrPrice {
			ranges, presentment := priceRanges(fs.base, counted, fs.sel[o.id], pr)
			doc.Ranges, doc.PresentmentRanges = &ranges, &presentment
		} else {
			values := valueDocs(o, fs.base, counted, fs.sel[o.id])
			doc.Values = &values
		}
		docs = append(docs, doc)
	}
	return docs
}

func valueDocs(o filterOption, base, counted []*Product, chosen []string) []valueDoc {
	canonical := map[string]string{} // lower-case value -> spelling first seen
	for _, p := range base {
		for _, v := range productValues(p, o) {
			if _, ok := canonical[strings.ToLower(v)]; !ok {
				canonical[strings.ToLower(v)] = v
			}
		}
	}
	counts := map[string]int{}
	for _, p := range counted {
		seen := map[string]bool{}
		for _, v := range productValues(p, o) {
			if k := strings.ToLower(v); !seen[k] {
				seen[k] = true
				counts[k]++
			}
		}
	}
	values := make([]valueDoc, 0, len(canonical))
	for k, v := range canonical {
		values = append(values, valueDoc{
			Value:    v,
			Label:    valueLabel(o, v),
			Count:    counts[k],
			Selected: slices.ContainsFunc(chosen, func(s string) bool { return strings.EqualFold(s, v) }),
		})
	}
	slices.SortFunc(values, func(a, b valueDoc) int { return compareValues(o, a.Value, b.Value) })
	return values
}

func valueLabel(o filterOption, v string) string {
	if o.attribute == attrAvailable {
		if v == availableValue {
			return "In stock"
		}
		return "Out of stock"
	}
	return v
}

// compareValues orders availability as in stock first, sizes from small to
// large, and everything else alphabetically.
func compareValues(o filterOption, a, b string) int {
	if o.attribute == attrAvailable {
		return cmp.Compare(b, a)
	}
	if o.attribute == attrOptionPrefix+"Size" || o.attribute == attrOptionPrefix+"Capacity" {
		return cmp.Or(cmp.Compare(sizeRank(a), sizeRank(b)), cmp.Compare(a, b))
	}
	return cmp.Or(cmp.Compare(strings.ToLower(a), strings.ToLower(b)), cmp.Compare(a, b))
}

// sizeRank puts letter sizes in their usual order and numbered sizes
// ("9", "24L") by their number, after the letters.
func sizeRank(s string) int {
	if i := slices.Index(apparelSizes, strings.ToUpper(s)); i >= 0 {
		return i
	}
	n, digits := 0, 0
	for _, r := range s {
		if r < '0' || r > '9' || digits > 6 {
			break
		}
		n = n*10 + int(r-'0')
		digits++
	}
	if digits == 0 {
		return 1 << 30
	}
	return len(apparelSizes) + n
}
