package backend

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// Statements are the SQL the engine runs, each written by a backend in its
// own dialect and built once (TestStatementsSideBySide prints both
// backends' next to each other). A text reads the store's own tables by
// their plain names; its parameters are positional, in the order each
// field's comment gives (SQLite numbers them ?1, ?2, PostgreSQL $1, $2).
// A function builds what depends on a table or a filter: the engine names
// no column of a dialect's.
type Statements struct {
	// BaseURL reads the store's base URL the mirror records.
	BaseURL string

	// The journal of passes. OpenPass (resource, purpose) reads the
	// interrupted pass: id, kind, details, started_at, walk, rows_new,
	// rows_changed, newest_first (1 when unknown). StartPass (resource,
	// kind, purpose, details, started_at, updated_at) returns the new id.
	// SaveState (walk, updated_at, rows_new, rows_changed, newest_first,
	// id); FinishPass (finished_at, updated_at, rows_gone, id);
	// AbandonPass (finished_at, note, id); FailPass (finished_at, note,
	// id). LastFull (resource): finished_at and newest_first of the last
	// full pass done. LastFinished (resource, kind): when the last such
	// pass finished, '' when none. LastWalk (resource, purpose): the walk
	// state of the last pass done.
	OpenPass, StartPass, SaveState, FinishPass, AbandonPass, FailPass string
	LastFull, LastFinished, LastWalk                                  string

	// An export's order. ExportedSeq (pass): the last seq recorded;
	// CountExported (pass): how many; RecordExportRows (pass, first seq,
	// a JSON array of ids, null for a row not recorded); ExportReplay
	// (pass): id, list_json in the order recorded; DeleteExportRows
	// (pass). ForgetExport deletes, in the transaction that ends it, the
	// order of an export that ended.
	ExportedSeq, CountExported, RecordExportRows, ExportReplay, DeleteExportRows string
	ForgetExport                                                                 func(ctx context.Context, tx *sql.Tx, pass int64) error

	// Rows of a table. CountPlaced (table; the pass's first place, its
	// first catch-up place, its first place and the next pass's): the
	// rows it placed going forward and by its catch-up. CountSeen (table;
	// pass): the rows it met. LowestID (table): the least id it holds,
	// NULL when none. UnmetExists, MarkGone and Unmet (table;
	// MarkGone's first parameter is gone_at, then each's the pass) find,
	// mark and list (id, list_json, newest id first) the live rows no
	// pass met since the pass began. StaleDetails (table): the live rows'
	// ids whose detail is not current, newest first. Rows (table) are the
	// statements that write them (RowSQL).
	CountPlaced, CountSeen, LowestID, UnmetExists, MarkGone, Unmet, StaleDetails func(table string) string
	Rows                                                                         func(t Table) *RowSQL

	// KeepOdd (resource, id, list_json, first_seen_at, last_seen_at,
	// seen_by) keeps a row whose id is not a 64-bit integer; OddSeen
	// (resource, pass): the ids of those the pass met.
	KeepOdd, OddSeen string

	// The back-in-stock form: FormCount, FormDelete, FormInsert (position,
	// id, label, placeholder, type, required, hidden, options,
	// defaultValue, field_json, fetched_at; a repeated id: the last
	// stands), FormFields (field_json in order).
	FormCount, FormDelete, FormInsert, FormFields string

	// An offer's products: OfferProductsDelete (offer),
	// OfferProductsInsert (offer, position, product_id, variant_id,
	// limit).
	OfferProductsDelete, OfferProductsInsert string

	// Engagement (id): status, last_sent, opened, clicked, unsubscribe and
	// whether it has its detail; DetailJSON (id).
	Engagement, DetailJSON string

	// The submissions' budgeted detail refresh. DetailPlan (class, limit
	// (<0: none); window's start, re-check cutoff): the ids due in the
	// class (DetailClass), in its order. Coverage (window's start, re-check
	// cutoff): the counts of DetailCoverage, in its order. DetailSent
	// (detail_sent_at, id). RememberRefresh (window, re-check, share) and
	// RefreshRules: the rules the last refresh used.
	DetailPlan                    func(class, limit int) string
	Coverage                      string
	DetailSent                    string
	RememberRefresh, RefreshRules string

	// Status (table, whether it has details): the live rows, the gone
	// ones, and those with a detail.
	Status func(table string, details bool) string

	// The answers. Find and Demand are bis find's and bis demand's;
	// Priority (variant and product given, in that order) the pre-order
	// rows of a variant or product; Offers every live offer as sent (its
	// detail, else its list item); EachSubmission (with details) every
	// live submission in list order: list_json, and the current detail or
	// NULL. ExportPlanCount: the live submissions whose detail is current;
	// CurrentDetail (id): a submission's detail when current.
	Find            func(f FindFilter) (string, []any)
	Demand          func(f DemandFilter) string
	Priority        func(variant, product bool) string
	Offers          string
	EachSubmission  func(details bool) string
	ExportPlanCount string
	CurrentDetail   string
}

// Table is what a backend builds a table's row statements from.
type Table struct {
	Name string
	// Cols are the columns a list row fills (the list's, then those
	// derived from them); DetailCols those a detail fills. Placed says the
	// table keeps each row's place in the list (list_pos).
	Cols, DetailCols []string
	Placed           bool
}

// RowSQL are the statements that write a table's rows, built once.
type RowSQL struct {
	// SeenSync and SeenExport find, for a page's ids (a JSON array), what
	// the mirror holds of each: id, list_json, whether it is gone, and
	// whether the pass (its id) gave it already: the pass met it (seen_by),
	// or the export recorded it.
	SeenSync, SeenExport string
	// Insert stores new rows: the id, the Cols, list_json,
	// list_fetched_at, first_seen_at, last_seen_at, seen_by, then list_pos
	// when Placed, a row after another.
	Insert func(rows int) string
	// Rewrite a row whose list item changed (or that came back): the Cols,
	// list_json, list_fetched_at, last_seen_at, seen_by, [list_pos], id.
	// Touch an unchanged one met: list_fetched_at, last_seen_at, seen_by,
	// [list_pos], id.
	Rewrite, Touch string
	// Detail stores a detail: the DetailCols, detail_json,
	// detail_fetched_at, id ("" for a table without details).
	Detail string
}

// OneInsertEach is build, the insert of n rows, made once for each n: a
// sync asks for a page's insert every page, and PostgreSQL's, fifteen rows
// of twenty-odd values with the jsonb of each, took a twelfth of
// storectl's work of a first sync to write out again and again.
func OneInsertEach(build func(n int) string) func(n int) string {
	var mu sync.Mutex
	made := map[int]string{}
	return func(n int) string {
		mu.Lock()
		defer mu.Unlock()
		q, ok := made[n]
		if !ok {
			q = build(n)
			made[n] = q
		}
		return q
	}
}

// MaxInsertRows is the most rows one insert writes: at the widest table's
// 30 columns, 7,680 parameters, well within both backends' limits.
const MaxInsertRows = 256

// FindFilter selects submissions; every field set must match.
type FindFilter struct {
	Email     string // case-insensitive (ASCII letters); * matches any run of characters
	Phone     string // compared on its digits; a number without its country code matches too
	ProductID string
	VariantID string
	SKU       string // case-insensitive (ASCII letters)
	Status    *int   // 0 pending, 1 sent
	Since     time.Time
}

// DemandFilter shapes the demand table.
type DemandFilter struct {
	ByVariant bool
	Status    string // "", "pending" or "sent": only groups with such requests, ordered by them
	Top       int    // 0: all
}
