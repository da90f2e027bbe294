package catalog

import "encoding/json"

// ProductPage is what filter and search answers share: a page of product
// documents, which a client may page through and merge (MergeProducts).
type ProductPage struct {
	Raw        json.RawMessage   // the whole answer as sent
	Products   []json.RawMessage // each product document as sent
	Pagination *Pagination       // nil when the answer has none
	// ProductsAt locates the product array in the answer.
	ProductsAt []string
}

// ProductPage returns the answer's page of products.
func (r *FilterResult) ProductPage() ProductPage {
	return ProductPage{Raw: r.Raw, Products: r.Products, Pagination: &r.Pagination, ProductsAt: FilterProductsPath}
}

// ProductPage returns the answer's page of products.
func (r *SearchResult) ProductPage() ProductPage {
	return ProductPage{Raw: r.Raw, Products: r.Products, Pagination: r.Pagination, ProductsAt: SearchProductsPath}
}

// Paged returns p asking for one page of limit products (0: not sent).
func (p FilterParams) Paged(page, limit int) FilterParams {
	p.Page, p.Limit = page, limit
	return p
}

// Paged returns p asking for one page of limit products (0: not sent).
func (p SearchParams) Paged(page, limit int) SearchParams {
	p.Page, p.Limit = page, limit
	return p
}

// ProductPager returns the decoder of the answers of the endpoint at path
// below the base URL ("/filter", "/search"), or nil when that endpoint's
// answers are not pages of products.
func ProductPager(path string) func(raw []byte) (ProductPage, error) {
	switch path {
	case "/filter":
		return func(raw []byte) (ProductPage, error) {
			r, err := decodeFilter(raw)
			if err != nil {
				return ProductPage{}, err
			}
			return r.ProductPage(), nil
		}
	case "/search":
		return func(raw []byte) (ProductPage, error) {
			r, err := decodeSearch(raw)
			if err != nil {
				return ProductPage{}, err
			}
			return r.ProductPage(), nil
		}
	}
	return nil
}

// PageStop says whether paging through products goes on after a page.
type PageStop int

const (
	// MorePages: the next page is worth fetching.
	MorePages PageStop = iota
	// LastPage: the answer announces no more pages (or has no pagination).
	LastPage
	// EmptyPage: an empty page announced more, as a server looping on
	// itself would: stop rather than page on forever.
	EmptyPage
	// PageCap: the page is MaxPage, the last the API serves.
	PageCap
)

// AfterPage says whether to fetch the page after page, whose answer held
// got products and pagination pg (nil when it had none).
func AfterPage(page, got int, pg *Pagination) PageStop {
	switch {
	case pg == nil || !pg.HasMorePages.Value:
		return LastPage
	case got == 0:
		return EmptyPage
	case page >= MaxPage:
		return PageCap
	}
	return MorePages
}
