package catalog

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

type filterBody struct {
	Products   []productDoc       `json:"products"`
	Filters    *[]filterOptionDoc `json:"filters,omitempty"`
	Form       *[]filterOptionDoc `json:"form,omitempty"`
	HasFilter  bool               `json:"has_filter"`
	Pagination paginationDoc      `json:"pagination"`
}

type noFilterBody struct {
	Error   int    `json:"error"`
	Message string `json:"message"`
}

// filterRequest is a validated filter query.
type filterRequest struct {
	pageType     string
	collectionID int64
	page, limit  int
	formID       int64
	useForm      bool
	sortBy       string
	pricing      pricing
}

// Filter serves GET /sfs/v1/filter. Parameters are validated in the order of
// the spec's table; the first failure is the 422 message.
func (c *Catalog) Filter(q url.Values) (int, []byte) {
	req, msg := c.parseFilterRequest(q)
	if msg != "" {
		return unprocessable(msg)
	}
	tree, found := c.treeForPage(req.pageType, req.collectionID)
	if req.useForm {
		if tree, found = c.treeByID(req.formID); !found {
			return jsonBody(http.StatusOK, noFilterBody{Error: 1, Message: "No Filter"})
		}
	}

	base, scores := c.filterBase(q, req)
	options := []filterOptionDoc{}
	result := base
	hasFilter := false
	if found {
		fs := newFacetState(tree, selectionFrom(tree, bracketParams(q, "filter"), bracketParams(q, "form")), base)
		options = fs.options(req.pricing)
		result = fs.result()
		hasFilter = fs.hasFilter()
	}

	sortProducts(result, req.sortBy, scores)
	lo, hi, pagination := paginate(len(result), req.page, req.limit)
	body := filterBody{
		Products:   productDocs(result[lo:hi], req.pricing),
		HasFilter:  hasFilter,
		Pagination: pagination,
	}
	if req.useForm {
		body.Form = &options
	} else {
		body.Filters = &options
	}
	return jsonBody(http.StatusOK, body)
}

func (c *Catalog) parseFilterRequest(q url.Values) (filterRequest, string) {
	req := filterRequest{sortBy: resolveSort(strings.TrimSpace(q.Get("sort_by")), sortCreatedDesc)}
	var msg string

	switch pt := strings.TrimSpace(q.Get("page_type")); pt {
	case "", pageCollection:
		req.pageType = pageCollection
	case pageSearch, pageIndex:
		req.pageType = pt
	default:
		return req, "The selected page_type " + strconv.Quote(pt) + " is invalid; use collection, search or index."
	}
	// collection is checked on every page type: a handle sent by mistake is
	// worth reporting even where the id would not be used.
	if s := strings.TrimSpace(q.Get("collection")); s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id < 0 || !isAllDigits(s) {
			return req, "The collection field must be a numeric collection id (not a handle), or 0 for All Products; got " + strconv.Quote(s) + "."
		}
		if req.pageType == pageCollection {
			req.collectionID = id
		}
	}
	if req.page, msg = pageParam(q); msg != "" {
		return req, msg
	}
	if req.limit, msg = limitParam(q, c.settings.ProductsPerPage); msg != "" {
		return req, msg
	}
	if s := strings.TrimSpace(q.Get("form_id")); s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return req, "The form_id field must be an integer filter id (see GET /sfs/v1/settings); got " + strconv.Quote(s) + "."
		}
		req.formID, req.useForm = id, true
	}
	if req.pricing, msg = pricingParams(q); msg != "" {
		return req, msg
	}
	return req, ""
}

// filterBase selects the page's products (the collection, or the whole
// catalog for All Products, search and index) narrowed by q, tags,
// exclude_tags, vendor and type, in catalog order. scores holds q's relevance
// per product id, nil without q.
func (c *Catalog) filterBase(q url.Values, req filterRequest) ([]*Product, map[int64]int) {
	m := newTermMatcher(q.Get("q"))
	var scores map[int64]int
	if !m.empty() {
		scores = map[int64]int{}
	}
	tags := newTagRule(q)
	vendor := strings.TrimSpace(q.Get("vendor"))
	productType := strings.TrimSpace(q.Get("type"))
	var base []*Product
	for i := range c.products {
		p := &c.products[i]
		if req.pageType == pageCollection && req.collectionID != 0 && !inCollection(p, req.collectionID) {
			continue
		}
		if !tags.allows(p) ||
			vendor != "" && !strings.EqualFold(p.Vendor, vendor) ||
			productType != "" && !strings.EqualFold(p.ProductType, productType) {
			continue
		}
		if scores != nil {
			s, ok := m.score(p)
			if !ok {
				continue
			}
			scores[p.ID] = s
		}
		base = append(base, p)
	}
	return base, scores
}

func inCollection(p *Product, id int64) bool {
	for _, cid := range p.CollectionIDs {
		if cid == id {
			return true
		}
	}
	return false
}

// tagRule is tags (a product must carry every listed tag) and exclude_tags
// (a product carrying any listed tag is left out), case-insensitive.
type tagRule struct{ include, exclude []string }

func newTagRule(q url.Values) tagRule {
	return tagRule{include: listParam(q, "tags"), exclude: listParam(q, "exclude_tags")}
}

func (r tagRule) allows(p *Product) bool {
	for _, t := range r.include {
		if !hasTag(p.Tags, t) {
			return false
		}
	}
	for _, t := range r.exclude {
		if hasTag(p.Tags, t) {
			return false
		}
	}
	return true
}

func formatID(id int64) string { return strconv.FormatInt(id, 10) }
