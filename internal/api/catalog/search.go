package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strconv"

	"github.com/storectl/storectl/internal/api/flex"
)

// SearchParams are the parameters of GET /sfs/v1/search. Zero values are
// not sent.
type SearchParams struct {
	// Term is the keyword; "" omits it, asking for the zero-character
	// answer (popular keywords). Longer than 512 characters is refused:
	// cut it first with TruncateTerm, as the server would.
	Term  string
	Page  int    // from 1
	Limit int    // 1 to 200
	Sort  string // sent as sort; see KnownSort
	Context
}

// Values checks p and encodes it.
func (p SearchParams) Values() (url.Values, error) {
	q := url.Values{}
	if _, cut := TruncateTerm(p.Term); cut {
		start, _ := truncateRunes(p.Term, 32)
		return nil, &ParamError{Param: "term", Value: start + "…", Problem: "the term is longer than 512 characters; the API would cut it"}
	}
	setIf(q, "term", p.Term)
	if err := pageParams(q, p.Page, p.Limit, checkSearchPage); err != nil {
		return nil, err
	}
	setIf(q, "sort", p.Sort)
	if err := p.Context.validate(); err != nil {
		return nil, err
	}
	p.Context.encode(q)
	return q, nil
}

// checkSearchPage: the spec bounds only the filter endpoint's page; a page
// is still counted from 1.
func checkSearchPage(page int) error {
	if page < 1 {
		return &ParamError{Param: "page", Value: strconv.Itoa(page), Problem: "pages are counted from 1"}
	}
	return nil
}

// SearchResult is one search response. Every key under result is optional
// ("present only when relevant"); absent ones are zero here.
type SearchResult struct {
	Raw             json.RawMessage   // the whole body as sent
	Products        []json.RawMessage // each product document as sent
	IsEmpty         bool
	Term            string
	Suggestions     []Keyword
	PopularKeywords []Keyword
	TotalProduct    *int64            // nil when not sent
	Pagination      *Pagination       // nil when not sent
	Collections     []json.RawMessage // the spec leaves their fields open
}

type searchBody struct {
	Result *struct {
		IsEmpty         json.RawMessage   `json:"isEmpty"`
		Term            Scalar            `json:"term"`
		Products        []json.RawMessage `json:"products"`
		Suggestions     []Keyword         `json:"suggestions"`
		PopularKeywords []Keyword         `json:"popular_keywords"`
		TotalProduct    flex.Int          `json:"total_product"`
		Pagination      *Pagination       `json:"pagination"`
		Collections     []json.RawMessage `json:"collections"`
	} `json:"result"`
}

// Search calls GET /search. A store still syncing gives a SyncingError.
func (c *Client) Search(ctx context.Context, p SearchParams) (*SearchResult, error) {
	q, err := p.Values()
	if err != nil {
		return nil, err
	}
	raw, err := c.get(ctx, "/search", q)
	if err != nil {
		return nil, err
	}
	return decodeSearch(raw)
}

func decodeSearch(raw []byte) (*SearchResult, error) {
	var body searchBody
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, &BadResponse{Path: "/search", Err: err}
	}
	res := body.Result
	if res == nil {
		return nil, &BadResponse{Path: "/search", Err: errors.New("no result object")}
	}
	r := &SearchResult{Raw: raw, Products: res.Products, IsEmpty: isSet(res.IsEmpty), Term: string(res.Term),
		Suggestions: res.Suggestions, PopularKeywords: res.PopularKeywords, TotalProduct: res.TotalProduct.Ptr(),
		Pagination: res.Pagination, Collections: res.Collections}
	return r, nil
}
