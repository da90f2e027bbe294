package catalog

// A filter tree is the merchant's filter configuration for one kind of page:
// All Products or one collection (page_type collection), the search page, the
// home page (index), or a vehicle-finder-like field set used through form_id.
type filterTree struct {
	id           int64
	title        string
	pageType     string // collection, search, index or finder
	collectionID int64  // page_type collection only; 0 = All Products
	options      []filterOption
}

// filterOption is one facet of a tree. Options are defined once for the store
// and shared by the trees that show them, so an option id means the same
// facet on every page.
type filterOption struct {
	id        int64
	handle    string
	label     string
	attribute string // vendor, product_type, tag, available, price or option:<name>
	display   string // how the storefront widget draws it (settings only)
}

const (
	attrAvailable    = "available"
	attrPrice        = "price"
	attrVendor       = "vendor"
	attrProductType  = "product_type"
	attrTag          = "tag"
	attrOptionPrefix = "option:"
)

var (
	optAvailability = filterOption{id: 1, handle: "pf_a_availability", label: "Availability", attribute: attrAvailable, display: "radio"}
	optPrice        = filterOption{id: 2, handle: "pf_p_price", label: "Price", attribute: attrPrice, display: "range"}
	optVendor       = filterOption{id: 3, handle: "pf_v_vendor", label: "Brand", attribute: attrVendor, display: "checkbox"}
	optProductType  = filterOption{id: 4, handle: "pf_pt_product_type", label: "Product type", attribute: attrProductType, display: "checkbox"}
	optColor        = filterOption{id: 5, handle: "pf_opt_color", label: "Color", attribute: attrOptionPrefix + "Color", display: "swatch"}
	optSize         = filterOption{id: 6, handle: "pf_opt_size", label: "Size", attribute: attrOptionPrefix + "Size", display: "box"}
	optTag          = filterOption{id: 7, handle: "pf_t_tag", label: "Tags", attribute: attrTag, display: "checkbox"}
	optCapacity     = filterOption{id: 8, handle: "pf_opt_capacity", label: "Capacity", attribute: attrOptionPrefix + "Capacity", display: "box"}
)

// Filter tree ids. FinderFormID is the "Find your fit" field set, meant for
// form_id with form[<option id>][] selections.
const (
	allProductsTreeID         = 1001
	searchTreeID              = 1100
	indexTreeID               = 1101
	firstCollectionTree       = 1002
	FinderFormID        int64 = 2001
)

// demoFilterTrees configures a tree for All Products, the search page, the
// home page, every collection except Trail Ready (so that one collection
// shows the "no configured filter" behaviour: its products, unfiltered, and
// no filter options), and the finder.
func demoFilterTrees(collections []Collection) []filterTree {
	standard := []filterOption{optAvailability, optPrice, optVendor, optProductType, optColor, optSize, optTag}
	trees := []filterTree{
		{id: allProductsTreeID, title: "All Products", pageType: pageCollection, options: standard},
		{id: searchTreeID, title: "Search results", pageType: pageSearch,
			options: []filterOption{optAvailability, optPrice, optVendor, optProductType, optTag}},
		{id: indexTreeID, title: "Home page", pageType: pageIndex, options: standard},
		{id: FinderFormID, title: "Find your fit", pageType: pageFinder,
			options: []filterOption{optProductType, optSize, optColor}},
	}
	for i, col := range collections {
		options := standard
		switch col.Handle {
		case handleTrailReady:
			continue
		case handleFootwear:
			options = []filterOption{optAvailability, optPrice, optVendor, optProductType, optColor, optSize}
		case handleBags:
			options = []filterOption{optAvailability, optPrice, optVendor, optColor, optCapacity}
		}
		trees = append(trees, filterTree{
			id: int64(firstCollectionTree + i), title: col.Title, pageType: pageCollection,
			collectionID: col.ID, options: options,
		})
	}
	return trees
}

func (c *Catalog) treeByID(id int64) (filterTree, bool) {
	for _, t := range c.trees {
		if t.id == id {
			return t, true
		}
	}
	return filterTree{}, false
}

func (c *Catalog) treeForPage(pageType string, collectionID int64) (filterTree, bool) {
	for _, t := range c.trees {
		if t.pageType != pageType {
			continue
		}
		if pageType != pageCollection || t.collectionID == collectionID {
			return t, true
		}
	}
	return filterTree{}, false
}

// Page types. finder is internal: a field set reachable only through form_id.
const (
	pageCollection = "collection"
	pageSearch     = "search"
	pageIndex      = "index"
	pageFinder     = "finder"
)
