package catalog

import (
	"cmp"
	"slices"
	"strings"
)

// suggestions offers related search terms: words and phrases of the catalog
// (product types, vendors, tags, title words and whole titles) that contain
// the term, most common first, without the term itself.
func (c *Catalog) suggestions(m termMatcher) []keywordDoc {
	if !c.settings.ShowSuggestions {
		return nil
	}
	freq := map[string]int{}
	for i := range c.products {
		p := &c.products[i]
		seen := map[string]bool{}
		candidates := append([]string{p.ProductType, p.Vendor, p.Title}, p.Tags...)
		candidates = append(candidates, strings.Fields(p.Title)...)
		for _, cand := range candidates {
			k := strings.ToLower(cand)
			if seen[k] || k == m.phrase || !strings.Contains(k, m.phrase) {
				continue
			}
			seen[k] = true
			freq[k]++
		}
	}
	keys := make([]string, 0, len(freq))
	for k := range freq {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(cmp.Compare(freq[b], freq[a]), cmp.Compare(len(a), len(b)), cmp.Compare(a, b))
	})
	var out []keywordDoc
	for _, k := range keys[:min(len(keys), c.settings.SuggestionsLimit)] {
		out = append(out, keywordDoc{Keyword: k})
	}
	return out
}
