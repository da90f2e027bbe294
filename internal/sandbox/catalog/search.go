package catalog

import (
	"net/http"
	"net/url"
	"strings"
)

type searchBody struct {
	Result searchResult `json:"result"`
}

// searchResult carries only the keys relevant to the query: a term response
// always has isEmpty, term, products, total_product and pagination, plus
// suggestions and collections when any matched; the empty-term response has
// popular_keywords and products only.
type searchResult struct {
	IsEmpty         *bool           `json:"isEmpty,omitempty"`
	Term            *string         `json:"term,omitempty"`
	Products        []productDoc    `json:"products"`
	Suggestions     []keywordDoc    `json:"suggestions,omitempty"`
	PopularKeywords []keywordDoc    `json:"popular_keywords,omitempty"`
	TotalProduct    *int            `json:"total_product,omitempty"`
	Pagination      *paginationDoc  `json:"pagination,omitempty"`
	Collections     []collectionDoc `json:"collections,omitempty"`
}

type keywordDoc struct {
	Keyword string `json:"keyword"`
}

// collectionDoc is a matched collection; the spec leaves its fields open.
type collectionDoc struct {
	ID            int64   `json:"id"`
	Handle        string  `json:"handle"`
	Title         string  `json:"title"`
	ProductsCount int     `json:"products_count"`
	Image         *string `json:"image"`
}

// Search serves GET /sfs/v1/search.
func (c *Catalog) Search(q url.Values) (int, []byte) {
	term := truncateRunes(q.Get("term"), maxTermRunes)
	page, msg := pageParam(q)
	if msg != "" {
		return unprocessable(msg)
	}
	limit, msg := limitParam(q, min(c.settings.InstantSearchLimit, maxInstantLimit))
	if msg != "" {
		return unprocessable(msg)
	}
	pr, msg := pricingParams(q)
	if msg != "" {
		return unprocessable(msg)
	}
	tags := newTagRule(q)
	m := newTermMatcher(term)
	if m.empty() {
		return jsonBody(http.StatusOK, searchBody{Result: c.zeroTermResult(tags, limit, pr)})
	}

	var matched []*Product
	scores := map[int64]int{}
	for i := range c.products {
		p := &c.products[i]
		if !tags.allows(p) {
			continue
		}
		if s, ok := m.score(p); ok {
			scores[p.ID] = s
			matched = append(matched, p)
		}
	}
	sortBy := q.Get("sort")
	if strings.TrimSpace(sortBy) == "" {
		sortBy = q.Get("sort_by")
	}
	sortProducts(matched, resolveSort(strings.TrimSpace(sortBy), sortRelevance), scores)
	lo, hi, pagination := paginate(len(matched), page, limit)

	total := len(matched)
	res := searchResult{
		Term:         &term,
		Products:     productDocs(matched[lo:hi], pr),
		Suggestions:  c.suggestions(m),
		TotalProduct: &total,
		Pagination:   &pagination,
		Collections:  c.matchCollections(m),
	}
	isEmpty := total == 0 && len(res.Suggestions) == 0 && len(res.Collections) == 0
	res.IsEmpty = &isEmpty
	return jsonBody(http.StatusOK, searchBody{Result: res})
}

// zeroTermResult is the configured answer to an empty term: the popular
// keywords and the store's best sellers (narrowed by tags and exclude_tags).
func (c *Catalog) zeroTermResult(tags tagRule, limit int, pr pricing) searchResult {
	var ps []*Product
	for i := range c.products {
		if tags.allows(&c.products[i]) {
			ps = append(ps, &c.products[i])
		}
	}
	sortProducts(ps, sortBestSelling, nil)
	ps = ps[:min(len(ps), c.settings.ZeroTermProducts, limit)]
	res := searchResult{Products: productDocs(ps, pr)}
	for _, k := range c.settings.PopularKeywords {
		res.PopularKeywords = append(res.PopularKeywords, keywordDoc{Keyword: k})
	}
	return res
}

// matchCollections finds collections whose title or handle contains every
// word of the term, in catalog order, up to the store's collection limit.
func (c *Catalog) matchCollections(m termMatcher) []collectionDoc {
	if !c.settings.ShowCollections {
		return nil
	}
	var out []collectionDoc
	for _, col := range c.collections {
		if len(out) == c.settings.CollectionsLimit {
			break
		}
		if !allWordsIn(m.words, col.Title, col.Handle) {
			continue
		}
		count := 0
		for i := range c.products {
			if inCollection(&c.products[i], col.ID) {
				count++
			}
		}
		out = append(out, collectionDoc{ID: col.ID, Handle: col.Handle, Title: col.Title, ProductsCount: count, Image: nullable(col.Image)})
	}
	return out
}

func allWordsIn(words []string, fields ...string) bool {
	for _, w := range words {
		if !containsFold(w, fields...) {
			return false
		}
	}
	return true
}
