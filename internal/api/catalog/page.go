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
