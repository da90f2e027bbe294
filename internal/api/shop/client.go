// Package shop is the typed client of the shop API (/shop-api/...): one
// method per endpoint. Methods return the server's raw bytes next to the
// decoded values, so commands can print lossless JSON.
package shop

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/storectl/storectl/internal/api/flex"
	"github.com/storectl/storectl/internal/httpx"
)

// Client calls the shop API through the shared transport.
type Client struct {
	http *httpx.Client
}

// PaceLeft is the least time n more requests take under the shop API's
// throttle as this client paces it (0 when unpaced), for honest ETAs.
func (c *Client) PaceLeft(n int) time.Duration { return c.http.PaceLeft(n) }

// Paced reports whether the client paces its requests (the rate_limit
// setting is on).
func (c *Client) Paced() bool { return c.http.Paced() }

// New wraps a transport whose BaseURL is the store's {base_url}.
func New(h *httpx.Client) *Client { return &Client{http: h} }

// Pagination is the pagination object of every shop list endpoint.
type Pagination struct {
	Total       flex.Int `json:"total"`
	PerPage     flex.Int `json:"per_page"`
	CurrentPage flex.Int `json:"current_page"`
	LastPage    flex.Int `json:"last_page"`
	From        flex.Int `json:"from"`
	To          flex.Int `json:"to"`
}

// Page is one page of a list endpoint: its items as sent, which
// DecodeItems reads into types.
type Page struct {
	Items      []json.RawMessage // each element of data, as sent
	Pagination Pagination
	Body       json.RawMessage // the whole response, for fields such as total_products
	path       string
}

// Envelope is the success body of a non-list endpoint.
type Envelope struct {
	Message string
	Data    json.RawMessage // the object under data, as sent
}

type listBody struct {
	Data       []json.RawMessage `json:"data"`
	Pagination *Pagination       `json:"pagination"`
}

type envelopeBody struct {
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// BadResponse is a success response whose shape breaks the contract.
type BadResponse struct {
	Path string
	Err  error
}

func (e *BadResponse) Error() string {
	return fmt.Sprintf("unexpected response from %s: %v", e.Path, e.Err)
}

func (c *Client) getPage(ctx context.Context, path string, query url.Values) (*Page, error) {
	resp, err := c.http.Do(ctx, httpx.Request{Method: "GET", Path: path, Query: query})
	if err != nil {
		return nil, err
	}
	return ParsePage(path, resp.Body)
}

// ParsePage reads the answer of the list endpoint at path: a data array
// and its pagination. Anything else is a BadResponse.
func ParsePage(path string, raw []byte) (*Page, error) {
	var body listBody
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, &BadResponse{Path: path, Err: err}
	}
	if body.Data == nil {
		return nil, &BadResponse{Path: path, Err: fmt.Errorf("no data array")}
	}
	p := &Page{Items: body.Data, Body: raw, path: path}
	if body.Pagination != nil {
		p.Pagination = *body.Pagination
	} else {
		// Without a pagination object the page is all there is.
		n := int64(len(body.Data))
		p.Pagination = Pagination{Total: flex.Int{Value: n, Valid: true}, CurrentPage: one, LastPage: one}
	}
	return p, nil
}

var one = flex.Int{Value: 1, Valid: true}

func decodeEnvelope(path string, raw []byte) (*Envelope, error) {
	var body envelopeBody
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, &BadResponse{Path: path, Err: err}
	}
	if len(body.Data) == 0 {
		return nil, &BadResponse{Path: path, Err: fmt.Errorf("no data")}
	}
	return &Envelope{Message: body.Message, Data: body.Data}, nil
}

// decodeData reads a success envelope and its data object; an answer that
// breaks the contract is a BadResponse naming path.
func decodeData[T any](path string, raw []byte, decode func(json.RawMessage) (T, error)) (*Envelope, T, error) {
	var zero T
	env, err := decodeEnvelope(path, raw)
	if err != nil {
		return nil, zero, err
	}
	v, err := decode(env.Data)
	if err != nil {
		return nil, zero, &BadResponse{Path: path, Err: err}
	}
	return env, v, nil
}

// DecodeItems reads every item of a page with decode; an item that breaks
// the contract is a BadResponse naming the page's endpoint.
func DecodeItems[T any](p *Page, decode func(json.RawMessage) (T, error)) ([]T, error) {
	out := make([]T, len(p.Items))
	for i, item := range p.Items {
		v, err := decode(item)
		if err != nil {
			return nil, &BadResponse{Path: p.path, Err: err}
		}
		out[i] = v
	}
	return out, nil
}

func pageQuery(page int) url.Values {
	q := url.Values{}
	if page > 0 {
		q.Set("page", strconv.Itoa(page))
	}
	return q
}

// HasNext reports whether a later page exists.
func (p *Page) HasNext() bool {
	return p.Pagination.CurrentPage.Value < p.Pagination.LastPage.Value && len(p.Items) > 0
}

// EachPage reads a list from its first page to its last through Walk, so
// that it has the walk's guarantees: each row once however the list
// changes while it is read, and a PagingError, not an endless loop, from a
// server that does not page. fn gets each page read with only the rows not
// given before in Items.
func EachPage(ctx context.Context, fetch func(ctx context.Context, page int) (*Page, error), fn func(*Page) error) error {
	w := &Walk{Fetch: fetch, Page: func(_ context.Context, wp *WalkPage) error {
		p := *wp.Page
		p.Items = make([]json.RawMessage, len(wp.Rows))
		for i, r := range wp.Rows {
			p.Items[i] = r.Raw
		}
		return fn(&p)
	}}
	_, err := w.Run(ctx)
	return err
}

// WithShare is the client drawing on only share (0 to 1) of the token's
// request budget, shared as ever with every process using the token: a
// long background job (the mirror's detail refresh) leaves the rest to a
// person's commands. share 1 (or out of range) is the client itself.
func (c *Client) WithShare(share float64) *Client {
	return &Client{http: c.http.WithShare(share)}
}

// BeforeSend returns ctx carrying fn, which runs just before each attempt
// of a request made with it leaves, after any wait for the pace (see
// httpx.BeforeSend): a journal marks the request sent there.
func BeforeSend(ctx context.Context, fn func() error) context.Context {
	return httpx.BeforeSend(ctx, fn)
}
