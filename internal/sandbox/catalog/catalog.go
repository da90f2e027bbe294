// Package catalog is the sandbox's catalog half of the contract: the demo
// store's products and collections and the behaviour of the catalog API's
// filter, search and settings endpoints.
//
// It is a second reading of the spec, written independently of the client in
// internal/api, so it deliberately imports nothing from storectl's other
// packages. Authentication, scopes, throttling and the syncing state belong to
// the parent package.
package catalog

import (
	"strings"
	"time"
)

// Product is one product of the demo store, shared with the shop API side of
// the sandbox (back-in-stock, pre-order and coming-soon rows refer to it).
type Product struct {
	ID            int64
	Handle        string
	Title         string
	Vendor        string
	ProductType   string
	Tags          []string
	CollectionIDs []int64
	Options       []Option
	Variants      []Variant
	Images        []Image
	Metafields    []Metafield
	CreatedAt     time.Time
	PublishedAt   time.Time
	UpdatedAt     time.Time
	// BestSellingRank is 1 for the best seller; it drives sort_by=best-selling.
	BestSellingRank int
	// Position is the merchant's manual order; it drives sort_by=manual.
	Position int
}

// Variant is one purchasable variant of a product.
type Variant struct {
	ID    int64
	Title string
	SKU   string
	// Price and CompareAtPrice are decimal strings as the platform sends them
	// ("19.99"); CompareAtPrice is "" when the variant is not on sale.
	Price             string
	CompareAtPrice    string
	Available         bool
	InventoryQuantity int
	InventoryItemID   int64
	// Option1..Option3 are the values of the product's options in order; ""
	// when the product has fewer options.
	Option1, Option2, Option3 string
}

// Option is a product option such as Color or Size.
type Option struct {
	Name     string
	Position int
	Values   []string
}

// Image is a product image.
type Image struct {
	Src      string
	Alt      string
	Position int
}

// Metafield is a merchant-defined value attached to a product.
type Metafield struct {
	Namespace string
	Key       string
	Value     string
	Type      string
}

// Collection is a group of products; membership is kept on the product
// (Product.CollectionIDs).
type Collection struct {
	ID     int64
	Handle string
	Title  string
	// Image is the collection image URL, "" when the collection has none.
	Image string
}

// Catalog is an immutable store catalog together with the store's filter and
// search configuration. Its methods are safe for concurrent use.
type Catalog struct {
	products    []Product
	collections []Collection
	productAt   map[int64]int
	variantAt   map[int64][2]int
	trees       []filterTree
	settings    storeSettings
}

func newCatalog(products []Product, collections []Collection, trees []filterTree, settings storeSettings) *Catalog {
	c := &Catalog{
		products:    products,
		collections: collections,
		productAt:   make(map[int64]int, len(products)),
		variantAt:   make(map[int64][2]int),
		trees:       trees,
		settings:    settings,
	}
	for i, p := range products {
		c.productAt[p.ID] = i
		for j, v := range p.Variants {
			c.variantAt[v.ID] = [2]int{i, j}
		}
	}
	return c
}

// Products returns every product in the demo's generation order. The slice is
// a copy; the products share their inner slices with the catalog and must not
// be modified.
func (c *Catalog) Products() []Product {
	return append([]Product(nil), c.products...)
}

// Collections returns every collection in a stable order.
func (c *Catalog) Collections() []Collection {
	return append([]Collection(nil), c.collections...)
}

// Product returns the product with the given id.
func (c *Catalog) Product(id int64) (Product, bool) {
	i, ok := c.productAt[id]
	if !ok {
		return Product{}, false
	}
	return c.products[i], true
}

// Variant returns the variant with the given id and the product it belongs to.
func (c *Catalog) Variant(id int64) (Product, Variant, bool) {
	at, ok := c.variantAt[id]
	if !ok {
		return Product{}, Variant{}, false
	}
	p := c.products[at[0]]
	return p, p.Variants[at[1]], true
}

// Collection returns the collection with the given id.
func (c *Catalog) Collection(id int64) (Collection, bool) {
	for _, col := range c.collections {
		if col.ID == id {
			return col, true
		}
	}
	return Collection{}, false
}

// MatchKeyword searches the catalog the way the platform search behind the
// pre-order products/list keyword does: a case-insensitive substring match of
// the whole keyword.
//
// productIDs holds the products whose title, handle, vendor, product type or a
// tag matches; variantIDs holds the variants whose SKU or title matches plus
// every variant of a matched product. A row belongs to the result when its
// product id is in productIDs or its variant id is in variantIDs. A blank
// keyword matches everything.
func (c *Catalog) MatchKeyword(keyword string) (productIDs, variantIDs map[int64]bool) {
	needle := strings.ToLower(strings.TrimSpace(keyword))
	productIDs = make(map[int64]bool)
	variantIDs = make(map[int64]bool)
	for _, p := range c.products {
		productMatched := containsFold(needle, p.Title, p.Handle, p.Vendor, p.ProductType) ||
			containsFold(needle, p.Tags...)
		if productMatched {
			productIDs[p.ID] = true
		}
		for _, v := range p.Variants {
			if productMatched || containsFold(needle, v.SKU, v.Title) {
				variantIDs[v.ID] = true
			}
		}
	}
	return productIDs, variantIDs
}

// containsFold reports whether any of the fields contains needle, which must
// already be lower case.
func containsFold(needle string, fields ...string) bool {
	for _, f := range fields {
		if strings.Contains(strings.ToLower(f), needle) {
			return true
		}
	}
	return false
}
