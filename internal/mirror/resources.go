package mirror

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/ids"
)

// resource is one mirrored shop list: its table, the columns filled from
// the list item and from the detail, and how to fetch them.
type resource struct {
	name  string // the table, and the journal's resource
	group string // what `mirror sync` names: bis, preorder, comingsoon
	noun  string // for messages: "submissions"
	// listCols are filled from the list item, detailCols from the detail,
	// each from the key of the same name.
	listCols, detailCols []string
	// idCols hold ids: stored as integers whatever form they are sent in.
	idCols map[string]bool
	// orderKey is the column the list is sorted on, newest first (the
	// incremental sync relies on it), and hasUpdatedAt says whether rows
	// carry updated_at (else a changed list item tells a change).
	orderKey     string
	hasUpdatedAt bool
	// placed says the table keeps each row's place in the list (list_pos).
	placed bool
	// derived, when set, computes columns of the table's own from the list
	// columns' values (searchable forms), stored next to them.
	derived func(list []any) (cols []string, vals []any)
	list    func(c *shop.Client) func(ctx context.Context, page int) (*shop.Page, error)
	// detail, when set, fetches a row's detail object as sent.
	detail func(ctx context.Context, c *shop.Client, id string) (json.RawMessage, error)
}

var submissions = &resource{
	name: "submissions", group: "bis", noun: "submissions",
	listCols: []string{"product_id", "variant_id", "customer_email", "customer_phone", "product_title", "variant_title",
		"sku", "status", "created_at", "updated_at"},
	detailCols: []string{"product_id", "variant_id", "customer_email", "customer_phone", "product_title", "variant_title",
		"sku", "inventory_id", "status", "last_sent", "unsubscribe", "content", "locale", "opened", "clicked", "note",
		"created_at", "updated_at"},
	idCols:   map[string]bool{"product_id": true, "variant_id": true},
	orderKey: "created_at", hasUpdatedAt: true, placed: true,
	// phone_digits finds "+1 (480) 555-0172" as +14805550172 and back.
	derived: func(list []any) ([]string, []any) {
		phone, _ := list[3].(string) // customer_phone
		return []string{"phone_digits"}, []any{nullIfEmpty(Digits(phone))}
	},
	list: func(c *shop.Client) func(context.Context, int) (*shop.Page, error) { return c.ListSubmissions },
	detail: func(ctx context.Context, c *shop.Client, id string) (json.RawMessage, error) {
		r, err := c.GetSubmission(ctx, id)
		if err != nil {
			return nil, err
		}
		return r.Raw, nil
	},
}

var offerCols = []string{"offer_name", "start_date", "end_date", "countdown_before_preorder_start",
	"countdown_before_preorder_end", "apply_to", "preorder_condition_inventory", "fulfillment_status",
	"fulfillment_shipping_date", "fulfillment_after_checkout", "turn_on_continue_selling_when_preorder_start",
	"turn_off_continue_selling_when_preorder_end", "status", "collection_id", "collection_name",
	"full_payment_discount_type", "full_payment_discount_value", "partial_payment_value", "partial_payment_value_type",
	"partial_payment_discount_value", "partial_payment_discount_type", "partial_payment_remaining_balance_charge_date",
	"updated_at"}

var offers = &resource{
	name: "offers", group: "preorder", noun: "offers",
	listCols: offerCols, detailCols: offerCols,
	idCols:   map[string]bool{"collection_id": true},
	orderKey: "updated_at",
	list: func(c *shop.Client) func(context.Context, int) (*shop.Page, error) {
		return func(ctx context.Context, page int) (*shop.Page, error) { return c.ListOffers(ctx, page, "") }
	},
	detail: func(ctx context.Context, c *shop.Client, id string) (json.RawMessage, error) {
		r, err := c.GetOffer(ctx, id)
		if err != nil {
			return nil, err
		}
		return r.Raw, nil
	},
}

var priorityRows = &resource{
	name: "priority_rows", group: "preorder", noun: "pre-order product rows",
	listCols: []string{"product_id", "variant_id", "profile_id", "priority_profile_id", "priority_type", "all_profile_ids",
		"is_manual_assign", "limit", "end_quantity", "units_sold", "updated_at"},
	idCols:   map[string]bool{"product_id": true, "variant_id": true, "profile_id": true, "priority_profile_id": true},
	orderKey: "updated_at", hasUpdatedAt: true,
	list: func(c *shop.Client) func(context.Context, int) (*shop.Page, error) {
		return func(ctx context.Context, page int) (*shop.Page, error) { return c.ListPriorityProducts(ctx, page, "") }
	},
}

var ruleCols = []string{"name", "start_date", "end_date", "show_countdown", "apply_to", "product_ids", "variant_ids",
	"collection_id", "status", "created_at", "updated_at"}

var rules = &resource{
	name: "rules", group: "comingsoon", noun: "coming-soon rules",
	listCols: ruleCols, detailCols: append(append([]string{}, ruleCols...), "translations"),
	idCols:   map[string]bool{"collection_id": true},
	orderKey: "created_at", hasUpdatedAt: true,
	list: func(c *shop.Client) func(context.Context, int) (*shop.Page, error) { return c.ListRules },
	detail: func(ctx context.Context, c *shop.Client, id string) (json.RawMessage, error) {
		r, err := c.GetRule(ctx, id)
		if err != nil {
			return nil, err
		}
		return r.Raw, nil
	},
}

// resourcesOf lists what a `mirror sync` group holds, in sync order.
func resourcesOf(group string) []*resource {
	switch group {
	case "bis":
		return []*resource{submissions}
	case "preorder":
		return []*resource{offers, priorityRows}
	case "comingsoon":
		return []*resource{rules}
	}
	return nil
}

// Groups are the names `mirror sync` takes, in the order it syncs them.
var Groups = []string{"bis", "preorder", "comingsoon"}

// columnValues reads cols from a JSON object as SQL values: numbers as
// integers when whole (else as real numbers), booleans as 1/0, null as
// NULL, strings as text, objects and arrays as their compact JSON; the id
// columns as integers whether sent as numbers or digit strings.
func (r *resource) columnValues(raw json.RawMessage, cols []string) ([]any, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("a %s row is not a JSON object", r.name)
	}
	vals := make([]any, len(cols))
	for i, c := range cols {
		v, ok := obj[c]
		if !ok {
			continue
		}
		vals[i] = sqlValue(v, r.idCols[c])
	}
	return vals, nil
}

func sqlValue(v json.RawMessage, isID bool) any {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return nil
	}
	switch v[0] {
	case 'n':
		return nil
	case 't':
		return 1
	case 'f':
		return 0
	case '"':
		var s string
		if json.Unmarshal(v, &s) != nil {
			return string(v)
		}
		if isID {
			if id, ok := ids.Normalize(s); ok {
				n, _ := strconv.ParseInt(id, 10, 64)
				return n
			}
		}
		return s
	case '{', '[':
		var b bytes.Buffer
		if json.Compact(&b, v) != nil {
			return string(v)
		}
		return b.String()
	}
	if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(string(v), 64); err == nil && !isID {
		return f
	}
	return string(v) // beyond int64, or not a number: kept as sent
}

// rowID is a mirrored row's primary key.
func rowID(id string) (int64, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("id %q is not a 64-bit integer", id)
	}
	return n, nil
}

// quoted quotes column names for SQL ("limit" is a keyword).
func quoted(cols []string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = `"` + c + `"`
	}
	return out
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// Digits keeps the digits of s: the searchable form of a phone number.
func Digits(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
