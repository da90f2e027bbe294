package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strconv"

	"github.com/storectl/storectl/internal/ids"
)

// Page types of the filter endpoint.
const (
	PageTypeCollection = "collection"
	PageTypeSearch     = "search"
	PageTypeIndex      = "index"
)

// FilterParams are the parameters of GET /sfs/v1/filter. Zero values are
// not sent, leaving the server's defaults.
type FilterParams struct {
	// Collection is the plain numeric collection id ("0" is All Products).
	Collection string
	PageType   string // collection, search or index
	SortBy     string // sent as given; see KnownSort
	Page       int    // 1 to 9999
	Limit      int    // 1 to 200
	Query      string // q: free text within the page
	Filter     []Selection
	Form       []Selection
	FormID     *int64
	Vendor     string
	Type       string
	Context
}

// Values checks p against the spec's rules and encodes it: arrays as
// repeated name[]= pairs, selections as filter[<key>][]= and form[<id>][]=.
func (p FilterParams) Values() (url.Values, error) {
	q := url.Values{}
	if p.Collection != "" {
		if !ids.IsDigits(p.Collection) {
			return nil, &ParamError{Param: "collection", Value: p.Collection, Problem: "a collection is given by its numeric id, not its handle (0 is All Products)"}
		}
		q.Set("collection", p.Collection)
	}
	switch p.PageType {
	case "":
	case PageTypeCollection, PageTypeSearch, PageTypeIndex:
		q.Set("page_type", p.PageType)
	default:
		return nil, &ParamError{Param: "page_type", Value: p.PageType, Problem: "the page type is collection, search or index"}
	}
	setIf(q, "sort_by", p.SortBy)
	if err := pageParams(q, p.Page, p.Limit, CheckPage); err != nil {
		return nil, err
	}
	setIf(q, "q", p.Query)
	if err := encodeSelections(q, "filter", p.Filter); err != nil {
		return nil, err
	}
	if err := encodeSelections(q, "form", p.Form); err != nil {
		return nil, err
	}
	if p.FormID != nil {
		q.Set("form_id", strconv.FormatInt(*p.FormID, 10))
	}
	setIf(q, "vendor", p.Vendor)
	setIf(q, "type", p.Type)
	if err := p.Context.validate(); err != nil {
		return nil, err
	}
	p.Context.encode(q)
	return q, nil
}

// FilterResult is one filter response.
type FilterResult struct {
	Raw      json.RawMessage   // the whole body as sent
	Products []json.RawMessage // each product document as sent
	// Options are the filter options, sent under "filters", or under
	// "form" when form_id was used; OptionsKey says which.
	Options    []FilterOption
	OptionsKey string
	HasFilter  bool
	Pagination Pagination
}

type filterBody struct {
	Products   *[]json.RawMessage `json:"products"`
	Filters    []FilterOption     `json:"filters"`
	Form       []FilterOption     `json:"form"`
	HasFilter  json.RawMessage    `json:"has_filter"`
	Pagination Pagination         `json:"pagination"`
}

// Filter calls GET /filter. A store still syncing gives a SyncingError, a
// form_id naming no filter a NoFilterError.
func (c *Client) Filter(ctx context.Context, p FilterParams) (*FilterResult, error) {
	q, err := p.Values()
	if err != nil {
		return nil, err
	}
	raw, err := c.get(ctx, "/filter", q)
	if err != nil {
		return nil, noFilter(err, p.FormID)
	}
	return decodeFilter(raw)
}

func decodeFilter(raw []byte) (*FilterResult, error) {
	var body filterBody
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, &BadResponse{Path: "/filter", Err: err}
	}
	if body.Products == nil {
		return nil, &BadResponse{Path: "/filter", Err: errors.New("no products array")}
	}
	r := &FilterResult{Raw: raw, Products: *body.Products, Options: body.Filters, OptionsKey: "filters",
		HasFilter: isSet(body.HasFilter), Pagination: body.Pagination}
	if body.Filters == nil && body.Form != nil {
		r.Options, r.OptionsKey = body.Form, "form"
	}
	return r, nil
}
