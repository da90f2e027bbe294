package mirror

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// The SQLite mirror's schema: one baseline (version baselineVersion), run
// on a new file, then migrations appended after it, each run once by the
// first writable open that finds the file older. A migration is never
// edited once on main: mirrors already ran its text, and a change would
// make two mirrors of the same version differ (TestMigrationsArePinned).
// The versions before the baseline were development versions of a
// storectl never released; a mirror of one is refused (BaselineError) and
// made again from the store, or moved with mirror copy (docs/mirror.md).
//
// The features that keep data of their own in the mirror (watch's outbox,
// the report's tallies) add their tables as schema parts (parts.go), each
// with its own append-only migrations and its version in schema_parts.

// baselineVersion is the baseline's version: the number after the last
// development version (19), so that no mirror made before reads as this
// schema.
const baselineVersion = 20

// migrations[0] is the baseline; migrations[i] takes a mirror from version
// baselineVersion+i-1 to baselineVersion+i.
var migrations = []string{sqliteBaseline}

// SchemaVersion is the schema this storectl writes.
var SchemaVersion = baselineVersion + len(migrations) - 1

const sqliteBaseline = `
-- Tables and columns carry the API's own names, so users' SQL reads like
-- the spec. Ids are INTEGER (64-bit: every digit of 2^53+1 and beyond is
-- kept); an id sent as a string of digits is stored as the same integer.
-- Each mirrored row keeps the JSON exactly as sent (list_json, detail_json)
-- and when it was fetched; a row a full pass no longer finds gets gone_at
-- instead of being deleted.
CREATE TABLE store (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);

-- Which schema parts of the features (internal/watch's outbox, the
-- report's tallies) the mirror holds, at which version: each feature's
-- migrations are its own, appended as the core's are.
CREATE TABLE schema_parts (
	part    TEXT PRIMARY KEY,
	version INTEGER NOT NULL
);

-- submissions keeps its rows in the order they arrive, whatever their ids:
-- the list gives them newest first (descending ids), and a table keyed by id
-- filled in that order leaves its pages half empty (158 MiB for 100,000 rows,
-- 85 after VACUUM). SQLite's own rowid, assigned in arrival order, appends;
-- id stays unique, found through its own small index. opened and clicked
-- have no type: the API sends 0 or a time.
CREATE TABLE submissions (
	id                INTEGER NOT NULL UNIQUE,
	product_id        INTEGER,
	variant_id        INTEGER,
	customer_email    TEXT,
	customer_phone    TEXT,
	product_title     TEXT,
	variant_title     TEXT,
	sku               TEXT,
	status            INTEGER,
	created_at        TEXT,
	updated_at        TEXT,
	inventory_id      TEXT,
	last_sent         TEXT,
	unsubscribe       INTEGER,
	content           TEXT,
	locale            TEXT,
	opened,
	clicked,
	note              TEXT,
	phone_digits      TEXT,
	list_json         TEXT NOT NULL,
	list_fetched_at   TEXT NOT NULL,
	detail_json       TEXT,
	detail_fetched_at TEXT,
	detail_for        TEXT,
	first_seen_at     TEXT NOT NULL,
	last_seen_at      TEXT NOT NULL,
	gone_at           TEXT,
	list_pos          INTEGER,
	detail_sent_at    TEXT,
	-- phone_digits reversed: a number given without its country code is a
	-- prefix of it, which an index finds.
	phone_reversed    TEXT,
	-- The last pass (sync_journal.id) that met the row in the list: what a
	-- pass has given so far, whatever the clock says.
	seen_by           INTEGER
);

-- A first full pass drops these indexes (and the triggers below) while it
-- fills an empty table and builds them again when it ends (bulk_deferred
-- keeps their definitions meanwhile).
-- - email: bis find --email, a person's submissions newest first read
--   backwards from the index, with id so that a pattern reads the index alone
--   for the ids;
-- - phone: phone_digits reversed, so that a number given without its country
--   code is a prefix of it;
-- - list: where each submission last stood in the list (list_pos): an offline
--   export writes the rows in the list's order, which need not be
--   created_at's;
-- - product: the live rows of a product and variant, newest last (bis find
--   --product-id, and what keeps demand_tally's newest row exact);
-- - sku: bis find --sku matches in any case, which only a NOCASE index serves.
CREATE INDEX submissions_email ON submissions (customer_email COLLATE NOCASE, created_at, id);
CREATE INDEX submissions_phone   ON submissions (phone_reversed);
CREATE INDEX submissions_variant ON submissions (variant_id, created_at);
CREATE INDEX submissions_sku     ON submissions (sku COLLATE NOCASE);
CREATE INDEX submissions_created ON submissions (created_at);
CREATE INDEX submissions_list    ON submissions (list_pos, created_at);
CREATE INDEX submissions_product ON submissions (product_id, variant_id, created_at, id) WHERE gone_at IS NULL;

CREATE TABLE offers (
	id                                            INTEGER PRIMARY KEY,
	offer_name                                    TEXT,
	start_date                                    TEXT,
	end_date                                      TEXT,
	countdown_before_preorder_start               INTEGER,
	countdown_before_preorder_end                 INTEGER,
	apply_to                                      TEXT,
	preorder_condition_inventory                  TEXT,
	fulfillment_status                            TEXT,
	fulfillment_shipping_date                     TEXT,
	fulfillment_after_checkout                    TEXT,
	turn_on_continue_selling_when_preorder_start  INTEGER,
	turn_off_continue_selling_when_preorder_end   INTEGER,
	status                                        INTEGER,
	collection_id                                 INTEGER,
	collection_name                               TEXT,
	full_payment_discount_type                    TEXT,
	full_payment_discount_value                   NUMERIC,
	partial_payment_value                         NUMERIC,
	partial_payment_value_type                    TEXT,
	partial_payment_discount_value                NUMERIC,
	partial_payment_discount_type                 TEXT,
	partial_payment_remaining_balance_charge_date TEXT,
	updated_at                                    TEXT,
	list_json                                     TEXT NOT NULL,
	list_fetched_at                               TEXT NOT NULL,
	detail_json                                   TEXT,
	detail_fetched_at                             TEXT,
	detail_for                                    TEXT,
	first_seen_at                                 TEXT NOT NULL,
	last_seen_at                                  TEXT NOT NULL,
	gone_at                                       TEXT,
	seen_by                                       INTEGER
);

CREATE TABLE offer_products (
	offer_id   INTEGER NOT NULL REFERENCES offers (id) ON DELETE CASCADE,
	position   INTEGER NOT NULL,
	product_id INTEGER,
	variant_id INTEGER,
	"limit"    INTEGER,
	PRIMARY KEY (offer_id, position)
);
CREATE INDEX offer_products_variant ON offer_products (variant_id);

CREATE TABLE priority_rows (
	id                  INTEGER PRIMARY KEY,
	product_id          INTEGER,
	variant_id          INTEGER,
	profile_id          INTEGER,
	priority_profile_id INTEGER,
	priority_type       TEXT,
	all_profile_ids     TEXT,
	is_manual_assign    INTEGER,
	"limit"             INTEGER,
	end_quantity        INTEGER,
	units_sold          INTEGER,
	updated_at          TEXT,
	list_json           TEXT NOT NULL,
	list_fetched_at     TEXT NOT NULL,
	first_seen_at       TEXT NOT NULL,
	last_seen_at        TEXT NOT NULL,
	gone_at             TEXT,
	seen_by             INTEGER
);
CREATE INDEX priority_rows_product ON priority_rows (product_id);
CREATE INDEX priority_rows_variant ON priority_rows (variant_id);

CREATE TABLE rules (
	id                INTEGER PRIMARY KEY,
	name              TEXT,
	start_date        TEXT,
	end_date          TEXT,
	show_countdown    INTEGER,
	apply_to          TEXT,
	product_ids       TEXT,
	variant_ids       TEXT,
	collection_id     INTEGER,
	translations      TEXT,
	status            INTEGER,
	created_at        TEXT,
	updated_at        TEXT,
	list_json         TEXT NOT NULL,
	list_fetched_at   TEXT NOT NULL,
	detail_json       TEXT,
	detail_fetched_at TEXT,
	detail_for        TEXT,
	first_seen_at     TEXT NOT NULL,
	last_seen_at      TEXT NOT NULL,
	gone_at           TEXT,
	seen_by           INTEGER
);
CREATE INDEX rules_name ON rules (name);

CREATE TABLE form_fields (
	position     INTEGER NOT NULL,
	id           TEXT PRIMARY KEY,
	label        TEXT,
	placeholder  TEXT,
	type         TEXT,
	required     INTEGER,
	hidden       INTEGER,
	options      TEXT,
	defaultValue TEXT,
	field_json   TEXT NOT NULL,
	fetched_at   TEXT NOT NULL
);

CREATE TABLE sync_journal (
	id           INTEGER PRIMARY KEY,
	resource     TEXT NOT NULL,
	kind         TEXT NOT NULL,
	purpose      TEXT NOT NULL,
	details      INTEGER NOT NULL DEFAULT 0,
	started_at   TEXT NOT NULL,
	updated_at   TEXT NOT NULL,
	finished_at  TEXT,
	outcome      TEXT,
	walk         TEXT NOT NULL DEFAULT '{}',
	rows_new     INTEGER NOT NULL DEFAULT 0,
	rows_changed INTEGER NOT NULL DEFAULT 0,
	rows_gone    INTEGER NOT NULL DEFAULT 0,
	newest_first INTEGER,
	note         TEXT
);
CREATE INDEX sync_journal_open ON sync_journal (resource, purpose, finished_at);

-- An online export's order: whether it gave a row is a lookup of its key
-- (pass_id, id), and a resume sorts the pass's rows by seq once. No foreign
-- key to sync_journal: with foreign_keys on it cost every row recorded a
-- lookup of its pass, and made the DELETE of the whole table that ends an
-- export delete the rows one by one instead of dropping its pages at once.
CREATE TABLE export_rows (
	pass_id INTEGER NOT NULL,
	seq     INTEGER NOT NULL,
	id      INTEGER NOT NULL,
	PRIMARY KEY (pass_id, id)
) WITHOUT ROWID;

-- A list row whose id is not a 64-bit integer (beyond 2^63-1, a decimal,
-- letters) cannot be a row of its table, whose id is an integer: it is kept
-- here as sent, named in a warning, and never stops a pass.
CREATE TABLE odd_rows (
	resource      TEXT NOT NULL,
	id            TEXT NOT NULL,
	list_json     TEXT NOT NULL,
	first_seen_at TEXT NOT NULL,
	last_seen_at  TEXT NOT NULL,
	seen_by       INTEGER,
	PRIMARY KEY (resource, id)
);

-- What a first full pass dropped to build again when it ends.
CREATE TABLE bulk_deferred (
	tbl  TEXT NOT NULL,
	kind TEXT NOT NULL, -- index or trigger
	name TEXT NOT NULL,
	sql  TEXT NOT NULL,
	PRIMARY KEY (tbl, name)
);

-- bis demand at a million submissions: per product and variant, the live
-- (not gone) submissions, pending and sent, the newest and oldest
-- created_at, and the newest submission (created_at, then id) with its
-- titles, which the answers show. Kept exact by the triggers below, in the
-- transaction that writes the rows; read through the views demand_by_variant
-- and demand_by_product. demand_tally_pending is bis demand's order (most
-- pending first, then the newest), declared descending so that groups equal
-- in both come in the table's order.
CREATE TABLE demand_tally (
	product_id INTEGER,
	variant_id INTEGER,
	live       INTEGER NOT NULL DEFAULT 0,
	pending    INTEGER NOT NULL DEFAULT 0,
	sent       INTEGER NOT NULL DEFAULT 0,
	newest     TEXT,
	oldest     TEXT,
	title_id   INTEGER,
	product_title TEXT,
	variant_title TEXT
);
CREATE UNIQUE INDEX demand_tally_key ON demand_tally (product_id, variant_id);
CREATE INDEX demand_tally_newest ON demand_tally (product_id, newest, title_id);
CREATE INDEX demand_tally_pending ON demand_tally (pending DESC, newest DESC);

CREATE TRIGGER submissions_demand_insert AFTER INSERT ON submissions WHEN new.gone_at IS NULL
BEGIN
	INSERT INTO demand_tally (product_id, variant_id) SELECT new.product_id, new.variant_id
		WHERE NOT EXISTS (SELECT 1 FROM demand_tally WHERE product_id IS new.product_id AND variant_id IS new.variant_id);
	UPDATE demand_tally SET live = live + 1, pending = pending + (new.status IS 0), sent = sent + (new.status IS 1),
		newest = CASE WHEN new.created_at > newest OR newest IS NULL THEN new.created_at ELSE newest END,
		oldest = CASE WHEN new.created_at < oldest OR oldest IS NULL THEN new.created_at ELSE oldest END,
		title_id = CASE WHEN title_id IS NULL OR new.created_at > newest OR newest IS NULL AND new.created_at IS NOT NULL
			OR new.created_at IS newest AND new.id > title_id THEN new.id ELSE title_id END
	WHERE product_id IS new.product_id AND variant_id IS new.variant_id;
END;

CREATE TRIGGER submissions_demand_delete AFTER DELETE ON submissions WHEN old.gone_at IS NULL
BEGIN
	UPDATE demand_tally SET live = live - 1, pending = pending - (old.status IS 0), sent = sent - (old.status IS 1)
	WHERE product_id IS old.product_id AND variant_id IS old.variant_id;
	DELETE FROM demand_tally WHERE product_id IS old.product_id AND variant_id IS old.variant_id AND live <= 0;
	UPDATE demand_tally SET
		newest = (SELECT max(created_at) FROM submissions WHERE product_id IS old.product_id AND variant_id IS old.variant_id AND gone_at IS NULL),
		oldest = (SELECT min(created_at) FROM submissions WHERE product_id IS old.product_id AND variant_id IS old.variant_id AND gone_at IS NULL),
		title_id = (SELECT id FROM submissions WHERE product_id IS old.product_id AND variant_id IS old.variant_id AND gone_at IS NULL
			ORDER BY created_at DESC, id DESC LIMIT 1)
	WHERE product_id IS old.product_id AND variant_id IS old.variant_id
		AND (old.created_at IS newest OR old.created_at IS oldest OR old.id IS title_id);
END;

-- A change of what the tally counts: the row leaves its old group (as the
-- delete trigger does), then joins its new one (as the insert trigger).
CREATE TRIGGER submissions_demand_update AFTER UPDATE OF product_id, variant_id, status, created_at, gone_at ON submissions
	WHEN old.product_id IS NOT new.product_id OR old.variant_id IS NOT new.variant_id OR old.status IS NOT new.status
		OR old.created_at IS NOT new.created_at OR old.gone_at IS NOT new.gone_at
BEGIN
	UPDATE demand_tally SET live = live - 1, pending = pending - (old.status IS 0), sent = sent - (old.status IS 1)
	WHERE old.gone_at IS NULL AND product_id IS old.product_id AND variant_id IS old.variant_id;
	DELETE FROM demand_tally WHERE product_id IS old.product_id AND variant_id IS old.variant_id AND live <= 0;
	UPDATE demand_tally SET
		newest = (SELECT max(created_at) FROM submissions WHERE product_id IS old.product_id AND variant_id IS old.variant_id AND gone_at IS NULL),
		oldest = (SELECT min(created_at) FROM submissions WHERE product_id IS old.product_id AND variant_id IS old.variant_id AND gone_at IS NULL),
		title_id = (SELECT id FROM submissions WHERE product_id IS old.product_id AND variant_id IS old.variant_id AND gone_at IS NULL
			ORDER BY created_at DESC, id DESC LIMIT 1)
	WHERE old.gone_at IS NULL AND product_id IS old.product_id AND variant_id IS old.variant_id
		AND (old.created_at IS newest OR old.created_at IS oldest OR old.id IS title_id);
	INSERT INTO demand_tally (product_id, variant_id) SELECT new.product_id, new.variant_id
		WHERE new.gone_at IS NULL
		AND NOT EXISTS (SELECT 1 FROM demand_tally WHERE product_id IS new.product_id AND variant_id IS new.variant_id);
	UPDATE demand_tally SET live = live + 1, pending = pending + (new.status IS 0), sent = sent + (new.status IS 1),
		newest = CASE WHEN new.created_at > newest OR newest IS NULL THEN new.created_at ELSE newest END,
		oldest = CASE WHEN new.created_at < oldest OR oldest IS NULL THEN new.created_at ELSE oldest END,
		title_id = CASE WHEN title_id IS NULL OR new.created_at > newest OR newest IS NULL AND new.created_at IS NOT NULL
			OR new.created_at IS newest AND new.id > title_id THEN new.id ELSE title_id END
	WHERE new.gone_at IS NULL AND product_id IS new.product_id AND variant_id IS new.variant_id;
END;

-- The titles of a group's title row, set whenever title_id changes
-- (whoever writes the tally: the submissions' triggers and the fills that
-- end a first pass) and when that row's titles change: bis demand reads
-- them here instead of a table page per group of a cold file.
CREATE TRIGGER demand_tally_titles_insert AFTER INSERT ON demand_tally WHEN new.title_id IS NOT NULL
BEGIN
	UPDATE demand_tally SET (product_title, variant_title) =
		(SELECT t.product_title, t.variant_title FROM submissions t WHERE t.id = new.title_id)
	WHERE rowid = new.rowid;
END;

CREATE TRIGGER demand_tally_titles_update AFTER UPDATE OF title_id ON demand_tally WHEN new.title_id IS NOT old.title_id
BEGIN
	UPDATE demand_tally SET (product_title, variant_title) =
		(SELECT t.product_title, t.variant_title FROM submissions t WHERE t.id = new.title_id)
	WHERE rowid = new.rowid;
END;

CREATE TRIGGER submissions_demand_titles AFTER UPDATE OF product_title, variant_title ON submissions
	WHEN old.product_title IS NOT new.product_title OR old.variant_title IS NOT new.variant_title
BEGIN
	UPDATE demand_tally SET product_title = new.product_title, variant_title = new.variant_title
	WHERE product_id IS new.product_id AND variant_id IS new.variant_id AND title_id = new.id;
END;

-- A variant's SKU in bis demand --by variant: the one most of its live
-- submissions carry (the newest of equally common ones; submissions without
-- one not counted), kept exact by the triggers below as demand_tally is.
CREATE TABLE demand_sku (
	product_id INTEGER,
	variant_id INTEGER,
	sku        TEXT NOT NULL,
	live       INTEGER NOT NULL DEFAULT 0,
	newest     TEXT
);
CREATE UNIQUE INDEX demand_sku_key ON demand_sku (product_id, variant_id, sku);
CREATE INDEX demand_sku_common ON demand_sku (product_id, variant_id, live, newest);

CREATE TRIGGER submissions_sku_insert AFTER INSERT ON submissions WHEN new.gone_at IS NULL AND coalesce(new.sku, '') <> ''
BEGIN
	INSERT INTO demand_sku (product_id, variant_id, sku) SELECT new.product_id, new.variant_id, new.sku
		WHERE NOT EXISTS (SELECT 1 FROM demand_sku WHERE product_id IS new.product_id AND variant_id IS new.variant_id AND sku = new.sku);
	UPDATE demand_sku SET live = live + 1,
		newest = CASE WHEN new.created_at > newest OR newest IS NULL THEN new.created_at ELSE newest END
	WHERE product_id IS new.product_id AND variant_id IS new.variant_id AND sku = new.sku;
END;

CREATE TRIGGER submissions_sku_delete AFTER DELETE ON submissions WHEN old.gone_at IS NULL AND coalesce(old.sku, '') <> ''
BEGIN
	UPDATE demand_sku SET live = live - 1 WHERE product_id IS old.product_id AND variant_id IS old.variant_id AND sku = old.sku;
	DELETE FROM demand_sku WHERE product_id IS old.product_id AND variant_id IS old.variant_id AND sku = old.sku AND live <= 0;
	UPDATE demand_sku SET newest = (SELECT max(created_at) FROM submissions WHERE product_id IS old.product_id
		AND variant_id IS old.variant_id AND sku = old.sku AND gone_at IS NULL)
	WHERE product_id IS old.product_id AND variant_id IS old.variant_id AND sku = old.sku AND old.created_at IS newest;
END;

-- As for the tally: the row leaves its old SKU's count, then joins its new one.
CREATE TRIGGER submissions_sku_update AFTER UPDATE OF product_id, variant_id, sku, created_at, gone_at ON submissions
	WHEN old.product_id IS NOT new.product_id OR old.variant_id IS NOT new.variant_id OR old.sku IS NOT new.sku
		OR old.created_at IS NOT new.created_at OR old.gone_at IS NOT new.gone_at
BEGIN
	UPDATE demand_sku SET live = live - 1
	WHERE old.gone_at IS NULL AND product_id IS old.product_id AND variant_id IS old.variant_id AND sku = old.sku;
	DELETE FROM demand_sku WHERE product_id IS old.product_id AND variant_id IS old.variant_id AND sku = old.sku AND live <= 0;
	UPDATE demand_sku SET newest = (SELECT max(created_at) FROM submissions WHERE product_id IS old.product_id
		AND variant_id IS old.variant_id AND sku = old.sku AND gone_at IS NULL)
	WHERE old.gone_at IS NULL AND product_id IS old.product_id AND variant_id IS old.variant_id AND sku = old.sku
		AND old.created_at IS newest;
	INSERT INTO demand_sku (product_id, variant_id, sku) SELECT new.product_id, new.variant_id, new.sku
		WHERE new.gone_at IS NULL AND coalesce(new.sku, '') <> ''
		AND NOT EXISTS (SELECT 1 FROM demand_sku WHERE product_id IS new.product_id AND variant_id IS new.variant_id AND sku = new.sku);
	UPDATE demand_sku SET live = live + 1,
		newest = CASE WHEN new.created_at > newest OR newest IS NULL THEN new.created_at ELSE newest END
	WHERE new.gone_at IS NULL AND product_id IS new.product_id AND variant_id IS new.variant_id AND sku = new.sku;
END;

-- The answers of bis find, bis demand --by variant and bis demand (by
-- product), for mirror query users: the commands read these views.
CREATE VIEW live_submissions AS SELECT * FROM submissions WHERE gone_at IS NULL;

CREATE VIEW demand_by_variant AS
SELECT d.product_id, d.product_title, d.variant_id, d.variant_title,
	(SELECT s.sku FROM demand_sku s WHERE s.product_id IS d.product_id AND s.variant_id IS d.variant_id
		ORDER BY s.live DESC, s.newest DESC LIMIT 1) AS sku,
	d.pending, d.sent, d.newest, d.oldest
FROM demand_tally d;

CREATE VIEW demand_by_product AS
SELECT g.product_id,
	(SELECT v.product_title FROM demand_tally v WHERE v.product_id IS g.product_id
		ORDER BY v.newest DESC, v.title_id DESC LIMIT 1) AS product_title,
	g.pending, g.sent, g.newest, g.oldest
FROM (SELECT product_id, sum(pending) AS pending, sum(sent) AS sent, max(newest) AS newest, min(oldest) AS oldest
	FROM demand_tally GROUP BY product_id) g;
`

// migrate brings the database to SchemaVersion and its parts to theirs,
// refusing one made by a newer storectl (its tables may mean things this
// one does not know) or by a development version before the baseline.
// asIs only checks: the schema must be this storectl's (an empty file
// passes: there is no mirror in it yet); inspect accepts any older one too
// (mirror query and mirror copy read what they name).
func migrate(ctx context.Context, db *sql.DB, path string, asIs, inspect bool) (int, error) {
	var version int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return 0, fmt.Errorf("read the mirror's schema version (%s): %w", path, err)
	}
	switch {
	case version > SchemaVersion:
		return version, &NewerSchemaError{Path: path, Version: version}
	case inspect || asIs && version == 0:
		return version, nil
	case version > 0 && version < baselineVersion:
		return version, sqliteBaselineError(ctx, db, path, version)
	case asIs && version < SchemaVersion:
		return version, &OlderSchemaError{Path: path, Version: version}
	case asIs:
		have, err := sqlitePartVersions(ctx, db)
		if err != nil {
			return version, err
		}
		return version, checkParts(path, have, partsOf(sqliteDialect), sqliteDialect)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return version, err
	}
	defer tx.Rollback()
	from := max(version-baselineVersion+1, 0)
	for i := from; i < len(migrations); i++ {
		if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
			return version, fmt.Errorf("upgrade the mirror's schema to version %d: %w", baselineVersion+i, err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion)); err != nil {
		return version, err
	}
	have, err := sqlitePartVersions(ctx, tx)
	if err != nil {
		return version, err
	}
	exec := func(ctx context.Context, q string, args ...any) error {
		_, err := tx.ExecContext(ctx, q, args...)
		return err
	}
	if err := migrateParts(ctx, path, have, partsOf(sqliteDialect), sqliteDialect, exec, setPartVersionSQLite); err != nil {
		return version, err
	}
	return SchemaVersion, tx.Commit()
}

// setPartVersionSQLite records a part's version.
const setPartVersionSQLite = `INSERT INTO schema_parts (part, version) VALUES (?, ?)
	ON CONFLICT (part) DO UPDATE SET version = excluded.version`

// sqlitePartVersions reads the parts' versions.
func sqlitePartVersions(ctx context.Context, q Querier) (map[string]int, error) {
	rows, err := q.QueryContext(ctx, "SELECT part, version FROM schema_parts")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	have := map[string]int{}
	for rows.Next() {
		var name string
		var v int
		if err := rows.Scan(&name, &v); err != nil {
			return nil, err
		}
		have[name] = v
	}
	return have, rows.Err()
}

// sqliteBaselineError is the refusal of a mirror made before the
// baseline, counting the watch events it holds undelivered (its outbox,
// from development version 5 on), which a reset would lose.
func sqliteBaselineError(ctx context.Context, db *sql.DB, path string, version int) error {
	e := &BaselineError{Path: path, Version: version, Copyable: version >= copyableVersion}
	err := db.QueryRowContext(ctx, "SELECT count(*) FROM outbox WHERE state <> 'delivered'").Scan(&e.Undelivered)
	if err != nil && !strings.Contains(err.Error(), "no such table") {
		return errors.Join(e, err)
	}
	return e
}

// copyableVersion is the oldest development version mirror copy moves:
// from version 8 on the tables hold every column the baseline's do (the
// searchable phone, the pass that met each row).
const copyableVersion = 8
