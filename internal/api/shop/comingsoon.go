package shop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/storectl/storectl/internal/api/flex"
	"github.com/storectl/storectl/internal/httpx"
)

// MaxDeleteIDs is the most rule ids one delete request may carry.
const MaxDeleteIDs = 100

// NewRule is the body of a coming-soon create request. Ids are json.Number
// so that they are sent as JSON numbers with their exact digits. Optional
// parts are left out when empty: the contract sends product_ids,
// variant_ids and collection_id only for their apply_to.
type NewRule struct {
	Name          string                       `json:"name"`
	Status        int                          `json:"status"`
	StartDate     string                       `json:"start_date"`
	EndDate       string                       `json:"end_date,omitempty"`
	ApplyTo       string                       `json:"apply_to"`
	ProductIDs    []json.Number                `json:"product_ids,omitempty"`
	VariantIDs    []json.Number                `json:"variant_ids,omitempty"`
	CollectionID  json.Number                  `json:"collection_id,omitempty"`
	ShowCountdown *bool                        `json:"show_countdown,omitempty"`
	Translations  map[string]map[string]string `json:"translations,omitempty"`
}

// Body is the exact JSON sent (HTML characters left as they are, so that a
// --dry-run shows the texts readably).
func (r NewRule) Body() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Rule is a coming-soon rule as list, detail and create responses send it.
type Rule struct {
	ID            flex.ID   `json:"id"`
	Name          string    `json:"name"`
	StartDate     string    `json:"start_date"` // ISO 8601 (list, detail) or YYYY-MM-DD HH:MM:SS (create)
	EndDate       string    `json:"end_date"`
	ShowCountdown flex.Bool `json:"show_countdown"` // Valid false: null
	ApplyTo       string    `json:"apply_to"`
	ProductIDs    []flex.ID `json:"product_ids"`
	VariantIDs    []flex.ID `json:"variant_ids"`
	CollectionID  flex.ID   `json:"collection_id"`
	// Translations is nil when null or absent (list items carry none).
	Translations Translations `json:"translations"`
	Status       flex.Bool    `json:"status"` // boolean in list and detail, 0/1 from create
	CreatedAt    string       `json:"created_at"`
	UpdatedAt    string       `json:"updated_at"`
}

// DecodeRule reads a rule object.
func DecodeRule(raw json.RawMessage) (Rule, error) {
	var r Rule
	if err := json.Unmarshal(raw, &r); err != nil {
		return Rule{}, fmt.Errorf("coming-soon rule: %w", err)
	}
	return r, nil
}

// Translation is one language's texts, keyed comingSoonAddToCartText,
// comingSoonAboveMessage, comingSoonBellowMessage.
type Translation struct {
	Lang  string
	Texts map[string]string
}

// Translations keeps the languages in the order the server sent them.
type Translations []Translation

func (t *Translations) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	*t = nil
	if len(b) == 0 || b[0] != '{' {
		// null, or [] as PHP encodes an empty object.
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return err
	}
	out := Translations{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		lang, _ := tok.(string)
		var texts map[string]any
		if err := dec.Decode(&texts); err != nil {
			// An entry that is not an object has no texts to show.
			texts = nil
		}
		tr := Translation{Lang: lang, Texts: map[string]string{}}
		for k, v := range texts {
			if s, ok := v.(string); ok {
				tr.Texts[k] = s
			}
		}
		out = append(out, tr)
	}
	*t = out
	return nil
}

// CreateRule sends one create request. It is never retried after it may
// have reached the server: a repeat could create the rule twice.
func (c *Client) CreateRule(ctx context.Context, r NewRule) (*RuleResult, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	const path = "/shop-api/coming-soon/create"
	resp, err := c.http.Do(ctx, httpx.Request{Method: "POST", Path: path, Body: body})
	if err != nil {
		return nil, err
	}
	res, err := decodeRule(path, resp.Body)
	if err == nil && res.Rule.ID == "" {
		err = &BadResponse{Path: path, Err: fmt.Errorf("no rule id in the answer")}
	}
	return res, err
}

// ListRules fetches one page of rules (without translations).
func (c *Client) ListRules(ctx context.Context, page int) (*Page, error) {
	return c.getPage(ctx, "/shop-api/coming-soon/list", pageQuery(page))
}

// RuleResult is one rule, decoded and as sent.
type RuleResult struct {
	Message string
	Rule    Rule
	Raw     json.RawMessage // the object under data, as sent
}

// GetRule fetches one rule with its translations.
func (c *Client) GetRule(ctx context.Context, id string) (*RuleResult, error) {
	path := "/shop-api/coming-soon/get/" + url.PathEscape(id)
	resp, err := c.http.Do(ctx, httpx.Request{Method: "GET", Path: path})
	if err != nil {
		return nil, err
	}
	return decodeRule(path, resp.Body)
}

// decodeRule reads an answer carrying one rule (get, create).
func decodeRule(path string, raw []byte) (*RuleResult, error) {
	env, rule, err := decodeData(path, raw, DecodeRule)
	if err != nil {
		return nil, err
	}
	return &RuleResult{Message: env.Message, Rule: rule, Raw: env.Data}, nil
}

// DeleteRules deletes up to MaxDeleteIDs rules in one request and returns
// the server's message. Repeating the request changes nothing more, so the
// transport may retry it after a network error or a 502/503/504; a retry
// whose first attempt did land is answered "not found".
func (c *Client) DeleteRules(ctx context.Context, ids []json.Number) (string, error) {
	if len(ids) == 0 || len(ids) > MaxDeleteIDs {
		return "", fmt.Errorf("a delete request takes 1 to %d ids, not %d", MaxDeleteIDs, len(ids))
	}
	body, err := json.Marshal(struct {
		IDs []json.Number `json:"ids"`
	}{ids})
	if err != nil {
		return "", err
	}
	resp, err := c.http.Do(ctx, httpx.Request{Method: "DELETE", Path: "/shop-api/coming-soon/delete", Body: body, Idempotent: true})
	if err != nil {
		return "", err
	}
	var env struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(resp.Body, &env)
	return env.Message, nil
}
