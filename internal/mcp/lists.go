package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Offers and coming-soon rules: the lists from the mirror (its copy of
// each item as the store sent it, read through mirror query's read-only
// connection), one by id from the store (preorder get, comingsoon get: one
// request). The catalog's search and filter ask the catalog API, a page a
// call.

type byIDInput struct {
	storeArg
	ID id `json:"id,omitempty"`
	pageArgs
}

// mirrorTables are the mirror's tables of the lists read by id: the shop
// API's names (docs/mirror-reference.md, "The schema"), the same on SQLite and
// PostgreSQL.
var mirrorTables = map[string]string{"preorder": "offers", "comingsoon": "rules"}

// runByID lists noun's items from the mirror, or gets one from the store.
func runByID(noun string) func(ctx context.Context, s *server, c *call) (*result, error) {
	return func(ctx context.Context, s *server, c *call) (*result, error) {
		var in byIDInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		if in.ID != "" {
			return s.getFromStore(ctx, c, argv{noun, "get", "--", string(in.ID)})
		}
		q, at, limit, err := c.position(&in)
		if err != nil {
			return nil, err
		}
		query := fmt.Sprintf("SELECT list_json FROM %s WHERE gone_at IS NULL ORDER BY id DESC", mirrorTables[noun])
		ans, err := s.run(ctx, c, Call{Args: argv{"mirror", "query", "--", query}, Groups: c.tool.groups})
		if err != nil {
			return nil, err
		}
		if len(ans.Missing) > 0 {
			return nil, notSynced(ans.Missing)
		}
		list, err := listJSON(items(ans))
		if err != nil {
			return nil, err
		}
		r := &result{Profile: c.profile}
		r.fromMirror(ans.AsOf, c.now)
		return r, s.fill(r, list, q, at, limit)
	}
}

// listJSON unwraps mirror query's rows ({"list_json": "<the item as
// sent>"}) into the items.
func listJSON(rows []json.RawMessage) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(rows))
	for i, row := range rows {
		var r struct {
			ListJSON string `json:"list_json"`
		}
		if err := json.Unmarshal(row, &r); err != nil {
			return nil, err
		}
		if !json.Valid([]byte(r.ListJSON)) {
			return nil, fmt.Errorf("row %d of the mirror holds no JSON", i+1)
		}
		out[i] = json.RawMessage(r.ListJSON)
	}
	return out, nil
}

// getFromStore runs a get: one request, the object as the store sent it.
func (s *server) getFromStore(ctx context.Context, c *call, a argv) (*result, error) {
	ans, err := s.run(ctx, c, Call{Args: a, Requests: 1})
	if err != nil {
		return nil, err
	}
	obj, err := single(ans)
	if err != nil {
		return nil, err
	}
	r := &result{Profile: c.profile}
	r.fromStore("store", 1, c.now)
	r.Data, err = s.clean.item(obj)
	return r, err
}

type catalogInput struct {
	storeArg
	Term        string   `json:"term,omitempty"`
	Collection  id       `json:"collection,omitempty"`
	PageType    string   `json:"page_type,omitempty"`
	Query       string   `json:"query,omitempty"`
	Filters     []string `json:"filters,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	ExcludeTags []string `json:"exclude_tags,omitempty"`
	Vendor      string   `json:"vendor,omitempty"`
	Type        string   `json:"type,omitempty"`
	Sort        string   `json:"sort,omitempty"`
	Locale      string   `json:"locale,omitempty"`
	Currency    string   `json:"currency,omitempty"`
	Country     string   `json:"country,omitempty"`
	pageArgs
}

// runCatalog asks the catalog API (verb: search or filter) for the page
// the cursor is at: the products are the items, the rest of the answer
// (pagination, filters, suggestions) its data.
func runCatalog(verb string) func(ctx context.Context, s *server, c *call) (*result, error) {
	return func(ctx context.Context, s *server, c *call) (*result, error) {
		var in catalogInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		q, at, limit, err := c.position(&in)
		if err != nil {
			return nil, err
		}
		if limit <= 0 {
			limit = defaultLimit
		}
		page := max(at.P, 1)
		a := argv{"catalog", verb, "--page=" + strconv.Itoa(page), "--limit=" + strconv.Itoa(min(limit, maxLimit)),
			"--wait-sync=0s"} // a store still making its first product sync says so at once
		if verb == "filter" {
			a.opt("collection", string(in.Collection))
			a.opt("page-type", in.PageType)
			a.opt("query", in.Query)
			a.each("filter", in.Filters)
			a.opt("vendor", in.Vendor)
			a.opt("type", in.Type)
		}
		a.each("tag", in.Tags)
		a.each("exclude-tag", in.ExcludeTags)
		a.opt("sort", in.Sort)
		a.opt("locale", in.Locale)
		a.opt("currency", in.Currency)
		a.opt("country", in.Country)
		if verb == "search" && in.Term != "" {
			a = append(a, "--", in.Term)
		}
		ans, err := s.run(ctx, c, Call{Args: a})
		if err != nil {
			return nil, err
		}
		resp, err := single(ans)
		if err != nil {
			return nil, err
		}
		body, products, more, total, err := catalogPage(resp, verb)
		if err != nil {
			return nil, err
		}
		r := &result{Profile: c.profile}
		r.fromStore("catalog", 1, c.now)
		next, err := r.page(products, at.O, limit, s.clean)
		if err != nil {
			return nil, err
		}
		r.Total = total
		switch {
		case next > 0:
			r.NextCursor = cursor{Q: q, P: page, O: next}.String()
		case more:
			r.Truncated = true
			r.NextCursor = cursor{Q: q, P: page + 1}.String()
		}
		r.Data, err = s.clean.item(body)
		return r, err
	}
}

// catalogPage takes a catalog answer apart: filter's has its products and
// pagination at the top, search's under "result" (the two endpoints answer
// in two shapes).
func catalogPage(resp json.RawMessage, verb string) (body json.RawMessage, products []json.RawMessage, more bool, total *int, err error) {
	inner := resp
	if verb == "search" {
		var env struct {
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(resp, &env); err != nil || len(env.Result) == 0 {
			return nil, nil, false, nil, fmt.Errorf("the catalog's answer has no result")
		}
		inner = env.Result
	}
	body, products, err = split(inner, "products")
	if err != nil {
		return nil, nil, false, nil, err
	}
	var meta struct {
		Pagination struct {
			Total json.Number `json:"total"`
			More  bool        `json:"hasMorePages"`
		} `json:"pagination"`
	}
	if json.Unmarshal(body, &meta) == nil {
		more = meta.Pagination.More
		if n, err := strconv.Atoi(strings.TrimSpace(string(meta.Pagination.Total))); err == nil {
			total = &n
		}
	}
	return body, products, more, total, nil
}
