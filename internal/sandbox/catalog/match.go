package catalog

import (
	"strings"
	"unicode/utf8"
)

// termMatcher is the free-text matching of search (term) and filter (q): the
// term is split into words, and a product matches when every word is a
// case-insensitive substring of its title, vendor, product type, a tag or a
// variant SKU.
type termMatcher struct {
	phrase string
	words  []string
}

func newTermMatcher(term string) termMatcher {
	phrase := strings.ToLower(strings.Join(strings.Fields(term), " "))
	return termMatcher{phrase: phrase, words: strings.Fields(phrase)}
}

func (m termMatcher) empty() bool { return len(m.words) == 0 }

// Relevance weights: where a word is found counts more than how often.
const (
	scoreTitlePhrase = 100
	scoreTitlePrefix = 50
	scoreExactSKU    = 200
	scoreTitleWord   = 10
	scoreTypeWord    = 5
	scoreVendorWord  = 4
	scoreTagWord     = 3
	scoreSKUWord     = 2
)

// score returns the product's relevance and whether it matches at all.
func (m termMatcher) score(p *Product) (int, bool) {
	title := strings.ToLower(p.Title)
	productType := strings.ToLower(p.ProductType)
	vendor := strings.ToLower(p.Vendor)
	score := 0
	for _, w := range m.words {
		found := false
		add := func(hit bool, points int) {
			if hit {
				score += points
				found = true
			}
		}
		add(strings.Contains(title, w), scoreTitleWord)
		add(strings.Contains(productType, w), scoreTypeWord)
		add(strings.Contains(vendor, w), scoreVendorWord)
		add(containsFold(w, p.Tags...), scoreTagWord)
		for _, v := range p.Variants {
			if strings.Contains(strings.ToLower(v.SKU), w) {
				add(true, scoreSKUWord)
				break
			}
		}
		if !found {
			return 0, false
		}
	}
	if strings.Contains(title, m.phrase) {
		score += scoreTitlePhrase
	}
	if strings.HasPrefix(title, m.phrase) {
		score += scoreTitlePrefix
	}
	for _, v := range p.Variants {
		if strings.EqualFold(v.SKU, m.phrase) {
			score += scoreExactSKU
			break
		}
	}
	return score, true
}

// truncateRunes cuts s to at most n characters (not bytes), so a term is
// never split inside a multi-byte character.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}
