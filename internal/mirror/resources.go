package mirror

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/ids"
	"github.com/storectl/storectl/internal/mirror/backend"
	"github.com/storectl/storectl/internal/output"
)

// resource is one mirrored shop list: its table, the columns filled from
// the list item and from the detail, and how to fetch them. What sets one
// list apart from another is a field here, never a test of which list it is.
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
	// derived are columns of the table's own, computed from a column the
	// list (or the detail) fills: searchable forms.
	derived []derivedColumn
	list    func(c *shop.Client) func(ctx context.Context, page int) (*shop.Page, error)
	// detail, when set, fetches a row's detail object as sent.
	detail func(ctx context.Context, c *shop.Client, id string) (json.RawMessage, error)
	// alwaysDetails fetches the details of new and changed rows on every
	// sync, asked or not (an offer's products are only in its detail).
	alwaysDetails bool
	// refreshed says a sync with --details runs the budgeted refresh
	// (refresh.go) rather than fetching every stale detail, and that a
	// stored detail's change of engagement is heard (engagement.go).
	refreshed bool
	// afterDetail stores what a detail holds beyond the row's columns, in
	// the detail's transaction.
	afterDetail func(ctx context.Context, db *DB, tx backend.Tx, id int64, raw []byte) error
	// withDetails fetches what a sync with --details needs besides the
	// rows' details (the back-in-stock form), and names what it stored
	// repaired (PassResult.FormRepaired).
	withDetails func(ctx context.Context, db *DB, c *shop.Client, full bool) (repaired []string, err error)
	orderCol    int // listCols' index of orderKey, -1 when none
	// table is what the backend builds the row statements from.
	table backend.Table
}

// derivedColumn is a column computed from another column's value.
type derivedColumn struct {
	name, from string
	value      func(v any) any
}

// phoneDerived finds "+1 (480) 555-0172" as +14805550172, and as 4805550172
// (the reversed digits begin with those of a number given without its
// country code).
var phoneDerived = []derivedColumn{
	{name: "phone_digits", from: "customer_phone", value: func(v any) any {
		s, _ := v.(string)
		return nullIfEmpty(Digits(s))
	}},
	{name: "phone_reversed", from: "customer_phone", value: func(v any) any {
		s, _ := v.(string)
		return nullIfEmpty(backend.ReversedDigits(s))
	}},
}

var submissions = &resource{
	name: "submissions", group: "bis", noun: "submissions",
	listCols: []string{"product_id", "variant_id", "customer_email", "customer_phone", "product_title", "variant_title",
		"sku", "status", "created_at", "updated_at"},
	detailCols: []string{"product_id", "variant_id", "customer_email", "customer_phone", "product_title", "variant_title",
		"sku", "inventory_id", "status", "last_sent", "unsubscribe", "content", "locale", "opened", "clicked", "note",
		"created_at", "updated_at"},
	idCols:   map[string]bool{"product_id": true, "variant_id": true},
	orderKey: "created_at", hasUpdatedAt: true, placed: true, refreshed: true,
	derived: phoneDerived,
	list:    func(c *shop.Client) func(context.Context, int) (*shop.Page, error) { return c.ListSubmissions },
	detail: func(ctx context.Context, c *shop.Client, id string) (json.RawMessage, error) {
		r, err := c.GetSubmission(ctx, id)
		if err != nil {
			return nil, err
		}
		return r.Raw, nil
	},
	withDetails: func(ctx context.Context, db *DB, c *shop.Client, full bool) ([]string, error) {
		return db.syncForm(ctx, c, full)
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
	alwaysDetails: true,
	afterDetail:   storeOfferProducts,
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

// resources are every mirrored list, in sync order.
var resources = []*resource{submissions, offers, priorityRows, rules}

func init() {
	for _, r := range resources {
		r.orderCol = slices.Index(r.listCols, r.orderKey)
		r.table = backend.Table{Name: r.name, Cols: r.writtenCols(), DetailCols: r.detailWrittenCols(), Placed: r.placed}
	}
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
//
// raw is a part of a decoded (so valid) document: a page's item, a
// detail, an item of a stored list. It is read in one scan, without a map
// (the sync's hottest loop once the database's work is out of the way).
func (r *resource) columnValues(raw json.RawMessage, cols []string) ([]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, fmt.Errorf("a %s row is not a JSON object", r.name)
	}
	vals := make([]any, len(cols))
	output.EachMember(raw, func(key []byte, v json.RawMessage) bool {
		for i, c := range cols {
			if string(key) == c {
				vals[i] = sqlValue(v, r.idCols[c]) // a repeated key: the last one, as a decoder keeps
			}
		}
		return true
	})
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
		s, ok := plainString(v)
		if !ok {
			if json.Unmarshal(v, &s) != nil {
				return backend.StorableText(string(v))
			}
			s = backend.StorableText(s)
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
			return backend.StorableText(string(v))
		}
		return backend.StorableText(b.String())
	}
	if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(string(v), 64); err == nil && !isID {
		return f
	}
	return backend.StorableText(string(v)) // beyond int64, or not a number: kept as sent
}

// StorableJSON is raw as the mirror stores it, and whether that is raw
// unchanged (an export writes what it did not store the same way). JSON is UTF-8 (RFC 8259; the API's answers are JSON), and
// PostgreSQL's text holds nothing else: a server sending other bytes in a
// string sends text no database of the mirror's holds as sent, so each
// run of bytes that is not UTF-8 is stored as U+FFFD, on both backends
// alike, and the pass names the row. Every escape, U+0000 and lone
// surrogates included, is kept as written.
func StorableJSON(raw []byte) (json.RawMessage, bool) {
	if utf8.Valid(raw) {
		return raw, true
	}
	return bytes.ToValidUTF8(raw, []byte("\uFFFD")), false
}

// plainString is the text of a JSON string literal that holds no escape
// and only valid UTF-8 (what a decoder would give unchanged), without
// decoding it; ok is false for any other.
func plainString(lit []byte) (string, bool) {
	if len(lit) < 2 || lit[len(lit)-1] != '"' {
		return "", false
	}
	inner := lit[1 : len(lit)-1]
	if bytes.IndexByte(inner, '\\') >= 0 || !utf8.Valid(inner) {
		return "", false
	}
	return string(inner), true
}

// rowID is a mirrored row's primary key.
func rowID(id string) (int64, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("id %q is not a 64-bit integer", id)
	}
	return n, nil
}

// Digits keeps the digits of s: the searchable form of a phone number.
func Digits(s string) string { return backend.Digits(s) }

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// columnValues reads cols from a row of res as SQL values
// (resource.columnValues), each made storable in its column by the
// backend (a value a PostgreSQL column's type cannot hold is NULL there;
// the JSON as sent keeps it).
func (db *DB) columnValues(res *resource, raw json.RawMessage, cols []string) ([]any, error) {
	vals, err := res.columnValues(raw, cols)
	if err == nil {
		db.conn.Fit(res.name, cols, vals)
	}
	return vals, err
}

// Lists are the tables a `mirror sync` group holds (submissions, offers,
// priority_rows, rules), in sync order: a feature's hooks hear them by
// these names.
func Lists(group string) []string {
	var out []string
	for _, r := range resourcesOf(group) {
		out = append(out, r.name)
	}
	return out
}
