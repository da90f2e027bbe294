package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/storectl/storectl/internal/output"
)

// The answers from the mirror: bis find, bis demand, bis report and
// preorder products --variant-id, each run with --offline (no request)
// unless the call asks to refresh the mirror first.

type findInput struct {
	storeArg
	Email     string `json:"email,omitempty"`
	Phone     string `json:"phone,omitempty"`
	ProductID id     `json:"product_id,omitempty"`
	VariantID id     `json:"variant_id,omitempty"`
	SKU       string `json:"sku,omitempty"`
	Status    string `json:"status,omitempty"`
	Since     string `json:"since,omitempty"`
	Refresh   bool   `json:"refresh,omitempty"`
	pageArgs
}

func runFind(ctx context.Context, s *server, c *call) (*result, error) {
	var in findInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	a := argv{"bis", "find"}
	a.opt("email", in.Email)
	a.opt("phone", in.Phone)
	a.opt("product-id", string(in.ProductID))
	a.opt("variant-id", string(in.VariantID))
	a.opt("sku", in.SKU)
	a.opt("status", in.Status)
	a.opt("since", in.Since)
	return s.mirrorList(ctx, c, &in, a, in.Refresh)
}

type demandInput struct {
	storeArg
	By      string `json:"by,omitempty"`
	Status  string `json:"status,omitempty"`
	Refresh bool   `json:"refresh,omitempty"`
	pageArgs
}

func runDemand(ctx context.Context, s *server, c *call) (*result, error) {
	var in demandInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	a := argv{"bis", "demand"}
	a.opt("by", in.By)
	a.opt("status", in.Status)
	return s.mirrorList(ctx, c, &in, a, in.Refresh)
}

// mirrorList answers with the items a command printed from the mirror,
// a page at a time.
func (s *server) mirrorList(ctx context.Context, c *call, in pager, a argv, refresh bool) (*result, error) {
	q, at, limit, err := c.position(in)
	if err != nil {
		return nil, err
	}
	ans, r, err := s.fromMirror(ctx, c, a, refresh, "")
	if err != nil {
		return nil, err
	}
	return r, s.fill(r, items(ans), q, at, limit)
}

// fill pages items into r.
func (s *server) fill(r *result, list []json.RawMessage, q string, at cursor, limit int) error {
	next, err := r.page(list, at.O, limit, s.clean)
	if err != nil {
		return err
	}
	if next > 0 {
		r.NextCursor = cursor{Q: q, O: next}.String()
	}
	return nil
}

// fromMirror runs a command that answers from the mirror's lists the tool
// reads: --offline, or after an incremental sync with refresh.
func (s *server) fromMirror(ctx context.Context, c *call, a argv, refresh bool, format string) (*Answer, *result, error) {
	requests := 0
	if refresh {
		requests = len(c.tool.groups)
	} else {
		a = append(a, "--offline")
	}
	ans, err := s.run(ctx, c, Call{Args: a, Groups: c.tool.groups, Requests: requests, Format: format})
	if err != nil {
		return nil, nil, err
	}
	r := &result{Profile: c.profile}
	r.fromMirror(ans.AsOf, c.now)
	if refresh {
		r.RequestsSent = requests
		r.Notes = append(r.Notes, "an incremental sync brought the mirror up to date first (requests_sent counts its least: one a list)")
	}
	return ans, r, nil
}

type reportInput struct {
	storeArg
	Since     string `json:"since,omitempty"`
	Until     string `json:"until,omitempty"`
	By        string `json:"by,omitempty"`
	ProductID id     `json:"product_id,omitempty"`
	VariantID id     `json:"variant_id,omitempty"`
	SKU       string `json:"sku,omitempty"`
	ByVariant bool   `json:"by_variant,omitempty"`
	Refresh   bool   `json:"refresh,omitempty"`
	pageArgs
}

// runReport answers bis report: the report as data, less its products
// (variants), which are the items, most pending first.
func runReport(ctx context.Context, s *server, c *call) (*result, error) {
	var in reportInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	q, at, limit, err := c.position(&in)
	if err != nil {
		return nil, err
	}
	a := argv{"bis", "report"}
	a.opt("since", in.Since)
	a.opt("until", in.Until)
	a.opt("by", in.By)
	a.opt("product-id", string(in.ProductID))
	a.opt("variant-id", string(in.VariantID))
	a.opt("sku", in.SKU)
	a.on("by-variant", in.ByVariant)
	ans, r, err := s.fromMirror(ctx, c, a, in.Refresh, "")
	if err != nil {
		return nil, err
	}
	report, err := single(ans)
	if err != nil {
		return nil, err
	}
	rest, products, err := split(report, "products")
	if err != nil {
		return nil, err
	}
	if r.Data, err = s.clean.item(rest); err != nil {
		return nil, err
	}
	return r, s.fill(r, products, q, at, limit)
}

type winnerInput struct {
	storeArg
	VariantID id   `json:"variant_id,omitempty"`
	ProductID id   `json:"product_id,omitempty"`
	Refresh   bool `json:"refresh,omitempty"`
	pageArgs
}

// runWinner answers preorder products --variant-id (or --product-id):
// each pre-order row as the store sent it, with the command's answer
// beside it (the winning offer, its name, why it wins, units sold), as
// its table shows them.
func runWinner(ctx context.Context, s *server, c *call) (*result, error) {
	var in winnerInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	if in.VariantID == "" && in.ProductID == "" {
		return nil, usage("name the variant (variant_id) or the product (product_id) to say which offer wins for")
	}
	q, at, limit, err := c.position(&in)
	if err != nil {
		return nil, err
	}
	a := argv{"preorder", "products"}
	a.opt("variant-id", string(in.VariantID))
	a.opt("product-id", string(in.ProductID))
	ans, r, err := s.fromMirror(ctx, c, a, in.Refresh, string(output.CSV))
	if err != nil {
		return nil, err
	}
	var rows []json.RawMessage
	for _, p := range ans.Parts {
		for _, raw := range p.Items {
			row, err := explained(raw, p.Cols)
			if err != nil {
				return nil, err
			}
			rows = append(rows, row)
		}
	}
	return r, s.fill(r, rows, q, at, limit)
}

// explained is a row as sent, with the text of each column the command
// computes for it ({"row": …, "answer": {"why": …, …}}).
func explained(raw json.RawMessage, cols []output.Column) (json.RawMessage, error) {
	o, err := output.ParseObject(raw)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(`{"row":`)
	b.Write(raw)
	b.WriteString(`,"answer":{`)
	n := 0
	for _, col := range cols {
		if col.Value == nil {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		writeString(&b, col.Key)
		b.WriteByte(':')
		writeString(&b, col.Value(o))
	}
	b.WriteString("}}")
	return b.Bytes(), nil
}

// split takes the list under key out of an object, keeping the rest as
// sent, in order.
func split(obj json.RawMessage, key string) (rest json.RawMessage, list []json.RawMessage, err error) {
	rest, value, err := cut(obj, key)
	if err == nil && value != nil && string(value) != "null" {
		if err = json.Unmarshal(value, &list); err != nil {
			err = fmt.Errorf("the answer's %s: %w", key, err)
		}
	}
	return rest, list, err
}

// cut takes the value under key out of an object, keeping the rest as
// sent, in order.
func cut(obj json.RawMessage, key string) (rest, value json.RawMessage, err error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, fmt.Errorf("the answer is not an object")
	}
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := kt.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		if k == key {
			value = v
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		writeString(&b, k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), value, nil
}
