package mirror

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// A feature (watch's outbox and alerts, the report's tallies) owns its
// data in the mirror: its tables are a schema part it brings in each
// backend's dialect, its statements are its own, and it hears, in the
// transaction that stores them, the rows every pass stores, so that what
// it derives commits with them or not at all. The mirror stores rows and
// passes; a new feature adds a package, not mirror tables.
//
// Why the feature's SQL is the feature's, and the drivers the backends':
// each backend owns its SQL and is the only code that imports a database
// driver, yet a feature's tables are its own. So a feature writes its
// statements once per dialect (backend.Dialect), as plain text, picks them
// by the mirror's Dialect, and runs them on the connections and
// transactions the mirror hands it (database/sql's interfaces, no
// driver): the texts are the feature's, the wire the backend's. Per-
// backend sub-packages of each feature were the other way; they would
// double the features' packages for SQL that is a few strings per
// dialect, and a third backend would touch every feature either way.
//
// A feature's part (its migrations, the statements the engine runs for it
// such as Refill, the tables mirror copy moves) sits in a package of its
// own that imports only internal/mirror/backend (internal/watch/schema,
// internal/report/schema): the feature registers it with its hooks, and
// the mirror's own tests register it too, so they make the schema
// storectl makes. The statements the feature runs itself (the watch's
// outbox, the report's queries) sit with its code.

// Feature is a package's data in the mirror and what it hears of the
// engine's writes.
type Feature struct {
	// Name names its schema part (schema_parts, storectl.meta).
	Name string
	// Schema are, per dialect, the part's migrations: the first makes it,
	// each next takes it one version further. Append, never edit.
	Schema map[backend.Dialect][]string
	// Refill are, per dialect, the statements that count afresh from the
	// rows of RefillTable what the part's triggers keep, where a first
	// pass that deferred them ends: on SQLite for the whole table, on
	// PostgreSQL for the one store its one parameter ($1) names.
	Refill      map[backend.Dialect][]string
	RefillTable string
	// Copied are the part's tables mirror copy moves, in the order their
	// references need.
	Copied []string
	// Unrecoverable counts, per dialect, the part's rows that exist
	// nowhere else (the watch's undelivered events): what a damaged
	// mirror's messages and mirror reset weigh before anything deletes it.
	Unrecoverable map[backend.Dialect]string
	// Pass, when set, is called as a pass of list (a table: submissions,
	// offers, priority_rows, rules) begins storing pages; the hooks it
	// returns (nil: none) hear the pass's pages and the rows it marks
	// gone, each in its transaction.
	Pass func(ctx context.Context, db *DB, list string) (PassHooks, error)
	// Detail, when set, hears a stored submission detail that changed the
	// row's engagement, in the detail's transaction.
	Detail func(ctx context.Context, db *DB, tx Tx, ch DetailChange) error
}

// PassHooks hear a pass's writes, in their transactions: an error rolls
// the page (or the pass's end) back.
type PassHooks interface {
	// Page hears the rows a page stored differently from what the mirror
	// held, in list order.
	Page(ctx context.Context, tx Tx, changes []RowChange) error
	// Gone hears the rows a full pass is about to mark gone.
	Gone(ctx context.Context, tx Tx, changes []RowChange) error
}

// Tx is a transaction a feature writes in.
type Tx = backend.Tx

// ChangeKind is how a pass changed a row.
type ChangeKind int

const (
	ChangeNew     ChangeKind = iota // first stored
	ChangeUpdated                   // its list row changed (or it came back)
	ChangeGone                      // a full pass no longer found it
)

// RowChange is a row a pass stored differently from what the mirror held:
// its list (table), the list row before (nil when new) and after (for a
// gone row, the last one held).
type RowChange struct {
	List          string
	ID            string
	Kind          ChangeKind
	Before, After json.RawMessage
}

var features struct {
	sync.Mutex
	list []*Feature
}

// Register adds a feature; a package registers its own when it is
// imported (as database/sql drivers do), so that every storectl that
// links it writes its part and calls its hooks.
func Register(f *Feature) {
	features.Lock()
	defer features.Unlock()
	i, found := slices.BinarySearchFunc(features.list, f.Name, func(g *Feature, name string) int { return strings.Compare(g.Name, name) })
	if found {
		panic("mirror: feature " + f.Name + " registered twice")
	}
	features.list = slices.Insert(features.list, i, f)
}

// registered are the features, by name.
func registered() []*Feature {
	features.Lock()
	defer features.Unlock()
	return slices.Clone(features.list)
}

// Parts are the features' schema parts in dialect d, as the backends take
// them.
func Parts(d backend.Dialect) []backend.Part {
	var out []backend.Part
	for _, f := range registered() {
		if len(f.Schema[d]) > 0 {
			out = append(out, backend.Part{Name: f.Name, Migrations: f.Schema[d], Refill: f.Refill[d], RefillTable: f.RefillTable,
				Copied: f.Copied, Unrecoverable: f.Unrecoverable[d]})
		}
	}
	return out
}

// refills are the features' refills of what their triggers on table keep.
func refills(d backend.Dialect, table string) []string {
	var out []string
	for _, f := range registered() {
		if f.RefillTable == table {
			out = append(out, f.Refill[d]...)
		}
	}
	return out
}

// copiedTables are the tables mirror copy moves: the mirror's own, in the
// order their references need (the journal first: its new ids are needed
// by list_pos and export_rows), then the features'.
func copiedTables() []string {
	tables := []string{"sync_journal", "submissions", "offers", "offer_products", "priority_rows", "rules",
		"form_fields", "export_rows", "odd_rows"}
	for _, f := range registered() {
		tables = append(tables, f.Copied...)
	}
	return tables
}

// startFeatures asks each feature whether it hears the pass's writes.
func (p *pass) startFeatures(ctx context.Context) error {
	p.heard = nil
	for _, f := range registered() {
		if f.Pass == nil {
			continue
		}
		h, err := f.Pass(ctx, p.db, p.res.name)
		if err != nil {
			return err
		}
		if h != nil {
			p.heard = append(p.heard, h)
		}
	}
	return nil
}

// pageChanged tells the features the page's changes, in its transaction.
func (p *pass) pageChanged(ctx context.Context, tx Tx, rows []pageRow) error {
	if len(p.heard) == 0 {
		return nil
	}
	changes := p.changes(rows)
	if len(changes) == 0 {
		return nil
	}
	for _, h := range p.heard {
		if err := h.Page(ctx, tx, changes); err != nil {
			return err
		}
	}
	return nil
}

// changes are the rows a page stored differently from what the mirror
// held.
func (p *pass) changes(rows []pageRow) []RowChange {
	var out []RowChange
	for _, r := range rows {
		if !r.odd && r.state != rowUnchanged {
			kind := ChangeUpdated
			if r.state == rowNew {
				kind = ChangeNew
			}
			out = append(out, RowChange{List: p.res.name, ID: r.ID, Kind: kind, Before: r.before, After: r.Raw})
		}
	}
	return out
}

// goneHeard tells the features the rows a full pass is about to mark
// gone (rows it did not meet), in the transaction that marks them.
func (p *pass) goneHeard(ctx context.Context, tx Tx) error {
	if len(p.heard) == 0 {
		return nil
	}
	rows, err := tx.QueryContext(ctx, p.db.q.Unmet(p.res.name), p.id)
	if err != nil {
		return err
	}
	var changes []RowChange
	for rows.Next() {
		var id int64
		var list string
		if err := rows.Scan(&id, &list); err != nil {
			rows.Close()
			return err
		}
		changes = append(changes, RowChange{List: p.res.name, ID: strconv.FormatInt(id, 10), Kind: ChangeGone,
			Before: json.RawMessage(list), After: json.RawMessage(list)})
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if len(changes) == 0 {
		return nil
	}
	for _, h := range p.heard {
		if err := h.Gone(ctx, tx, changes); err != nil {
			return err
		}
	}
	return nil
}

// detailHeard tells the features a detail's change of engagement, in its
// transaction.
func (db *DB) detailHeard(ctx context.Context, tx Tx, ch DetailChange) error {
	for _, f := range registered() {
		if f.Detail != nil {
			if err := f.Detail(ctx, db, tx, ch); err != nil {
				return err
			}
		}
	}
	return nil
}

// SQLTx is a database/sql transaction as a Tx.
type SQLTx = backend.SQLTx
