package mirror

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/ids"
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
	afterDetail func(ctx context.Context, db *DB, tx *sql.Tx, id int64, raw []byte) error
	// withDetails fetches what a sync with --details needs besides the
	// rows' details (the back-in-stock form).
	withDetails func(ctx context.Context, db *DB, c *shop.Client, full bool) error
	// rebuild fills, from the table's rows, what its triggers keep up to
	// date row by row (run when a first pass ends: see bulk.go).
	rebuild []string

	orderCol int           // listCols' index of orderKey, -1 when none
	sql      func() rowSQL // its statements, built once, on first use (rowsql.go)
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
		return nullIfEmpty(reverse(Digits(s)))
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
	withDetails: func(ctx context.Context, db *DB, c *shop.Client, full bool) error { return db.syncForm(ctx, c, full) },
	rebuild:     []string{"DELETE FROM demand_tally", fillDemandTally, "DELETE FROM demand_sku", fillDemandSKU},
}

// fillDemandTally counts demand_tally afresh from the rows (the same as
// baseline's triggers keep it). `+gone_at` keeps the planner from the
// partial index submissions_product, which orders the groups but sends it
// to the table for every row: it reads a covering index (bis report's,
// submissions_report, an eighth of the table) or, lacking one, the table,
// and sorts. At 100,000 rows that took each fill from 0.6 s of CPU to 0.15.
const fillDemandTally = `INSERT INTO demand_tally (product_id, variant_id, live, pending, sent, newest, oldest, title_id)
SELECT product_id, variant_id, count(*), sum(status IS 0), sum(status IS 1), max(created_at), min(created_at),
	(SELECT t.id FROM submissions t WHERE t.product_id IS g.product_id AND t.variant_id IS g.variant_id
		AND t.gone_at IS NULL ORDER BY t.created_at DESC, t.id DESC LIMIT 1)
FROM submissions g WHERE +gone_at IS NULL GROUP BY product_id, variant_id`

// fillDemandSKU counts demand_sku afresh from the rows (as schema
// triggers keep it), read as fillDemandTally reads them.
const fillDemandSKU = `INSERT INTO demand_sku (product_id, variant_id, sku, live, newest)
SELECT product_id, variant_id, sku, count(*), max(created_at) FROM submissions
WHERE +gone_at IS NULL AND coalesce(sku, '') <> '' GROUP BY product_id, variant_id, sku`

// fillReportTally counts report_tally afresh from the rows (as schema
// triggers keep it), read as fillDemandTally reads them.
const fillReportTally = `INSERT INTO report_tally (product_id, variant_id, sku, locale, status, quarter, n, detailed, opened, clicked, unsubscribed, oldest)
SELECT product_id, variant_id, sku, l, status, q, count(*), sum(d), sum(o), sum(c), sum(u), min(created_at)
FROM (SELECT product_id, variant_id, sku, status, created_at,
		CASE WHEN created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(created_at, 1, 14) || printf('%02d', CAST(substr(created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE created_at END AS q,
		coalesce(CASE WHEN detail_fetched_at IS NOT NULL THEN locale END, '') AS l,
		detail_fetched_at IS NOT NULL AS d,
		detail_fetched_at IS NOT NULL AND opened IS NOT NULL AND opened NOT IN (0, '0', '') AS o,
		detail_fetched_at IS NOT NULL AND clicked IS NOT NULL AND clicked NOT IN (0, '0', '') AS c,
		detail_fetched_at IS NOT NULL AND unsubscribe IS 1 AS u
	FROM submissions WHERE +gone_at IS NULL) AS k
GROUP BY product_id, variant_id, sku, l, status, q`

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

// The statements are built when a pass first needs them, not when the
// program starts: every run (--version, an offline answer) would pay for
// them otherwise, a tenth of a megabyte of allocations.
func init() {
	for _, r := range resources {
		r.orderCol = slices.Index(r.listCols, r.orderKey)
		r.sql = sync.OnceValue(func() rowSQL { return buildRowSQL(r) })
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
		if !ok && json.Unmarshal(v, &s) != nil {
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

// reverse reverses a string of ASCII digits.
func reverse(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
