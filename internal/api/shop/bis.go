package shop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/storectl/storectl/internal/api/flex"
	"github.com/storectl/storectl/internal/httpx"
	"github.com/storectl/storectl/internal/ids"
)

// Back-in-stock paths. The spec writes the form path without the /shop-api
// prefix but every other shop endpoint with it; the prefixed form is the
// consistent reading and the sandbox serves both.
const (
	bisFormPath   = "/shop-api/back-in-stock/form"
	bisCreatePath = "/shop-api/back-in-stock/create"
	bisListPath   = "/shop-api/back-in-stock/list"
	bisGetPath    = "/shop-api/back-in-stock/get/"
)

// Back-in-stock form field types.
const (
	FieldSelectVariant = "selectVariant"
	FieldEmail         = "email"
	FieldPhone         = "phone"
	FieldText          = "text"
	FieldTextarea      = "textarea"
	FieldSelect        = "select"
	FieldRadio         = "radio"
	FieldCheckbox      = "checkbox"
	FieldAcceptTerms   = "acceptTerms"
	FieldHidden        = "hidden"
)

// FormField is one field of the merchant's back-in-stock form.
type FormField struct {
	ID           string    `json:"id"`
	Label        string    `json:"label"` // may hold raw HTML
	Placeholder  string    `json:"placeholder"`
	Type         string    `json:"type"`
	Required     flex.Bool `json:"required"`
	Hidden       flex.Bool `json:"hidden"`
	Options      []string  `json:"options"` // nil unless select, radio or checkbox
	DefaultValue *string   `json:"defaultValue"`
}

// BISForm is the form definition: the decoded fields and the data array as
// sent, for lossless output and caching.
type BISForm struct {
	Fields []FormField
	Raw    json.RawMessage
}

// DecodeBISForm reads the form's data array (as cached or sent).
func DecodeBISForm(raw json.RawMessage) (*BISForm, error) {
	var fields []FormField
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, err
	}
	if fields == nil {
		return nil, fmt.Errorf("the form is not an array of fields")
	}
	for i, f := range fields {
		if f.ID == "" {
			return nil, fmt.Errorf("form field %d has no id", i+1)
		}
	}
	return &BISForm{Fields: fields, Raw: raw}, nil
}

// BISForm fetches the form definition.
func (c *Client) BISForm(ctx context.Context) (*BISForm, error) {
	resp, err := c.http.Do(ctx, httpx.Request{Path: bisFormPath})
	if err != nil {
		return nil, err
	}
	var body struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(resp.Body, &body); err != nil {
		return nil, &BadResponse{Path: bisFormPath, Err: err}
	}
	form, err := DecodeBISForm(body.Data)
	if err != nil {
		return nil, &BadResponse{Path: bisFormPath, Err: err}
	}
	return form, nil
}

// BISCreateRequest is the body of a create call. Ids are json.Number so
// that they go out as JSON numbers with their exact digits.
type BISCreateRequest struct {
	CustomerEmail string      `json:"customer_email"`
	ProductID     json.Number `json:"product_id"`
	VariantID     json.Number `json:"variant_id"`
	CustomerPhone string      `json:"customer_phone,omitempty"`
	Locale        string      `json:"locale,omitempty"`
	Note          string      `json:"note,omitempty"`
	Content       *BISContent `json:"content,omitempty"`
}

// BISContent is the content object: custom field values keyed by field id,
// in form order, then source and keyLabel (the labels of the fields sent).
type BISContent struct {
	Values   []ContentEntry
	Source   string
	KeyLabel []ContentEntry
}

// ContentEntry is one key and its text.
type ContentEntry struct {
	Key   string
	Value string
}

// MarshalJSON writes the members in order, which a Go map would not keep.
func (c *BISContent) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	writeEntries(&b, c.Values)
	if c.Source != "" {
		writeEntries(&b, []ContentEntry{{"source", c.Source}})
	}
	if len(c.KeyLabel) > 0 {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(`"keyLabel":{`)
		writeEntries(&b, c.KeyLabel)
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func writeEntries(b *bytes.Buffer, entries []ContentEntry) {
	for _, e := range entries {
		if last := b.Bytes()[b.Len()-1]; last != '{' {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(e.Key) // strings always marshal
		v, _ := json.Marshal(e.Value)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
}

// Body is the exact JSON CreateSubmission sends (what --dry-run shows).
func (r *BISCreateRequest) Body() ([]byte, error) {
	for _, id := range []json.Number{r.ProductID, r.VariantID} {
		if !ids.IsDigits(string(id)) {
			return nil, fmt.Errorf("product and variant ids must be numeric, got %q", id)
		}
	}
	return json.Marshal(r)
}

// Submission is a back-in-stock submission as the create and detail
// endpoints send it.
type Submission struct {
	ID            flex.ID         `json:"id"`
	ProductID     flex.ID         `json:"product_id"`
	VariantID     flex.ID         `json:"variant_id"`
	CustomerEmail string          `json:"customer_email"`
	CustomerPhone *string         `json:"customer_phone"`
	ProductTitle  string          `json:"product_title"`
	VariantTitle  string          `json:"variant_title"`
	SKU           *string         `json:"sku"`
	InventoryID   flex.ID         `json:"inventory_id"`
	Status        flex.Int        `json:"status"`
	LastSent      *string         `json:"last_sent"`
	Unsubscribe   flex.Int        `json:"unsubscribe"`
	Content       json.RawMessage `json:"content"` // a JSON-encoded string, or null
	Locale        string          `json:"locale"`
	Opened        flex.ZeroOrTime `json:"opened"`
	Clicked       flex.ZeroOrTime `json:"clicked"`
	Note          *string         `json:"note"`
	CreatedAt     string          `json:"created_at"`
	UpdatedAt     string          `json:"updated_at"`
}

// SubmissionResult is a submission with the server's bytes and message.
type SubmissionResult struct {
	Message    string
	Submission Submission
	Raw        json.RawMessage // the object under data, as sent
}

// Updated reports whether a create found an existing submission. The spec
// says only that the message is "the created message" or "the updated
// message", not their texts, so the message decides when it names either
// word; otherwise a record whose updated_at differs from its created_at
// existed before.
func (r *SubmissionResult) Updated() bool {
	msg := strings.ToLower(r.Message)
	switch {
	case strings.Contains(msg, "updat"):
		return true
	case strings.Contains(msg, "creat"):
		return false
	}
	return r.Submission.CreatedAt != r.Submission.UpdatedAt
}

// CreateSubmission registers a customer for a variant. A refusal
// (success: false, HTTP 200) comes back as *httpx.APIError.
func (c *Client) CreateSubmission(ctx context.Context, req *BISCreateRequest) (*SubmissionResult, error) {
	body, err := req.Body()
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(ctx, httpx.Request{Method: "POST", Path: bisCreatePath, Body: body})
	if err != nil {
		return nil, err
	}
	return decodeSubmission(bisCreatePath, resp.Body)
}

// ListSubmissions fetches one page of the submission list (page < 1: the
// first).
func (c *Client) ListSubmissions(ctx context.Context, page int) (*Page, error) {
	return c.getPage(ctx, bisListPath, pageQuery(page))
}

// GetSubmission fetches one submission by its numeric id.
func (c *Client) GetSubmission(ctx context.Context, id string) (*SubmissionResult, error) {
	if !ids.IsDigits(id) {
		return nil, fmt.Errorf("submission id %q is not a number", id)
	}
	path := bisGetPath + url.PathEscape(id)
	resp, err := c.http.Do(ctx, httpx.Request{Path: path})
	if err != nil {
		return nil, err
	}
	return decodeSubmission(path, resp.Body)
}

func decodeSubmission(path string, raw []byte) (*SubmissionResult, error) {
	env, sub, err := decodeData(path, raw, func(data json.RawMessage) (Submission, error) {
		var s Submission
		if err := json.Unmarshal(data, &s); err != nil {
			return s, err
		}
		if s.ID == "" {
			return s, fmt.Errorf("the submission has no id")
		}
		return s, nil
	})
	if err != nil {
		return nil, err
	}
	return &SubmissionResult{Message: env.Message, Submission: sub, Raw: env.Data}, nil
}
