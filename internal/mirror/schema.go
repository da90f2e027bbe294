package mirror

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations build the schema: migrations[i] takes a database from
// version i to i+1 (PRAGMA user_version). Append, never edit: a mirror on
// disk is at whatever version its storectl left it.
//
// Tables and columns carry the API's own names, so users' SQL reads like
// the spec. Ids are INTEGER (64-bit: every digit of 2^53+1 and beyond is
// kept); an id sent as a string of digits is stored as the same integer.
// Each mirrored row keeps the JSON exactly as sent (list_json, detail_json)
// and when it was fetched; a row a full pass no longer finds gets gone_at
// instead of being deleted.
var migrations = []string{`
CREATE TABLE store (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);

CREATE TABLE submissions (
	id                INTEGER PRIMARY KEY,
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
	gone_at           TEXT
);
CREATE INDEX submissions_email   ON submissions (customer_email COLLATE NOCASE);
CREATE INDEX submissions_phone   ON submissions (phone_digits);
CREATE INDEX submissions_product ON submissions (product_id);
CREATE INDEX submissions_variant ON submissions (variant_id);
CREATE INDEX submissions_sku     ON submissions (sku);
CREATE INDEX submissions_created ON submissions (created_at);

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
	gone_at                                       TEXT
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
	gone_at             TEXT
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
	gone_at           TEXT
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

CREATE TABLE export_rows (
	pass_id INTEGER NOT NULL REFERENCES sync_journal (id) ON DELETE CASCADE,
	seq     INTEGER NOT NULL,
	id      INTEGER NOT NULL,
	PRIMARY KEY (pass_id, seq)
);
`, `
-- bis demand groups by product (or variant) and shows each group's newest
-- titles: with the times, status and gone_at in the index it reads no
-- table row but the one whose titles it shows (0.05 s instead of 0.5 to 1 s
-- on 100,000 submissions). Lookups by product or variant use the prefix.
DROP INDEX submissions_product;
CREATE INDEX submissions_product ON submissions (product_id, created_at, status, gone_at);
DROP INDEX submissions_variant;
CREATE INDEX submissions_variant ON submissions (variant_id, product_id, created_at, status, gone_at);
-- bis find --sku matches in any case: only a NOCASE index serves that.
DROP INDEX submissions_sku;
CREATE INDEX submissions_sku ON submissions (sku COLLATE NOCASE);
`, `
-- Where each submission last stood in the list (see listPosition): an
-- offline export writes the rows in the list's order, which need not be
-- created_at's. Rows no pass has placed yet (NULL) follow, newest first.
ALTER TABLE submissions ADD COLUMN list_pos INTEGER;
CREATE INDEX submissions_list ON submissions (list_pos, created_at);
`, `
-- A list row whose id is not a 64-bit integer (beyond 2^63-1, a decimal,
-- letters) cannot be a row of its table, whose id is SQLite's rowid: it is
-- kept here as sent, named in a warning, and never stops a pass.
CREATE TABLE odd_rows (
	resource      TEXT NOT NULL,
	id            TEXT NOT NULL,
	list_json     TEXT NOT NULL,
	first_seen_at TEXT NOT NULL,
	last_seen_at  TEXT NOT NULL,
	PRIMARY KEY (resource, id)
);
`, `
-- storectl watch (docs/watch.md). A list named in watch_lists is watched:
-- every pass that stores a page of it writes what changed as events into
-- the outbox, in the page's transaction; clock_at is when the rules' dates
-- were last checked against the clock (rule.started, rule.ended).
CREATE TABLE watch_lists (
	resource      TEXT PRIMARY KEY,
	watched_since TEXT NOT NULL,
	clock_at      TEXT
);
-- The events, delivered in seq order. id is stable: the same change
-- derived again has the same id, and is not recorded twice. state is
-- pending, delivered or parked (retried until the limit, then set aside).
CREATE TABLE outbox (
	seq             INTEGER PRIMARY KEY AUTOINCREMENT,
	id              TEXT NOT NULL UNIQUE,
	type            TEXT NOT NULL,
	resource        TEXT NOT NULL,
	row_id          TEXT NOT NULL,
	occurred_at     TEXT NOT NULL,
	detected_at     TEXT NOT NULL,
	data            TEXT NOT NULL,
	state           TEXT NOT NULL DEFAULT 'pending',
	attempts        INTEGER NOT NULL DEFAULT 0,
	first_failed_at TEXT,
	next_attempt_at TEXT,
	last_error      TEXT,
	delivered_at    TEXT
);
CREATE INDEX outbox_state ON outbox (state, seq);
-- --alert: per alert and variant (or product), whether the count stood at
-- or above the threshold when last evaluated, and how often it crossed.
-- The row with key '' says the alert was evaluated once (its baseline).
CREATE TABLE watch_alerts (
	alert     TEXT NOT NULL,
	key       TEXT NOT NULL,
	above     INTEGER NOT NULL,
	crossings INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (alert, key)
);
`, `
-- The budgeted detail refresh (refresh.go): when a detail request last
-- left for the row. One newer than detail_fetched_at had no answer stored
-- (a run killed or refused mid-request): the server may have counted it,
-- so it is not sent again within the re-check interval.
ALTER TABLE submissions ADD COLUMN detail_sent_at TEXT;
`, `
-- bis report (internal/report) reads every column it counts from this
-- index instead of the table, whose rows carry the JSON as sent: at
-- 100,000 submissions a scan of it reads about 8 MB instead of 130 MB of
-- pages. created_at first: a report's range is a seek.
CREATE INDEX submissions_report ON submissions (created_at, status, product_id, variant_id, detail_fetched_at,
	locale, unsubscribe, opened, clicked, last_sent, gone_at, sku);
`, `
-- Version 8 (issue 23): a mirror of a million submissions at the speed and
-- size of its rows.
--
-- submissions keeps its rows in the order they arrive, whatever their ids:
-- the list gives them newest first (descending ids), and a table keyed by id
-- filled in that order leaves its pages half empty (158 MiB for 100,000 rows,
-- 85 after VACUUM). SQLite's own rowid, assigned in arrival order, appends;
-- id stays unique, found through its own small index.
CREATE TABLE submissions_by_arrival (
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
INSERT INTO submissions_by_arrival
SELECT id, product_id, variant_id, customer_email, customer_phone, product_title, variant_title, sku, status,
	created_at, updated_at, inventory_id, last_sent, unsubscribe, content, locale, opened, clicked, note,
	phone_digits, list_json, list_fetched_at, detail_json, detail_fetched_at, detail_for, first_seen_at,
	last_seen_at, gone_at, list_pos, detail_sent_at,
	(WITH RECURSIVE r(i, s) AS (SELECT length(phone_digits), '' UNION ALL
		SELECT i - 1, s || substr(phone_digits, i, 1) FROM r WHERE i > 0) SELECT s FROM r WHERE i = 0),
	NULL
FROM submissions ORDER BY id;
ALTER TABLE offers ADD COLUMN seen_by INTEGER;
ALTER TABLE priority_rows ADD COLUMN seen_by INTEGER;
ALTER TABLE rules ADD COLUMN seen_by INTEGER;
ALTER TABLE odd_rows ADD COLUMN seen_by INTEGER;
DROP TABLE submissions;
ALTER TABLE submissions_by_arrival RENAME TO submissions;

-- Built once over the copied rows. A first full pass drops them (and the
-- triggers below) while it fills an empty table and builds them again
-- when it ends (bulk_deferred keeps their definitions meanwhile).
-- With id, so that a pattern (bis find --email '*@example.com') reads the
-- index alone for the ids.
CREATE INDEX submissions_email   ON submissions (customer_email COLLATE NOCASE, id);
CREATE INDEX submissions_phone   ON submissions (phone_reversed);
CREATE INDEX submissions_variant ON submissions (variant_id, created_at);
CREATE INDEX submissions_sku     ON submissions (sku COLLATE NOCASE);
CREATE INDEX submissions_created ON submissions (created_at);
CREATE INDEX submissions_list    ON submissions (list_pos, created_at);
-- bis report's covering index (version 7), as it was.
CREATE INDEX submissions_report ON submissions (created_at, status, product_id, variant_id, detail_fetched_at,
	locale, unsubscribe, opened, clicked, last_sent, gone_at, sku);
-- The live rows of a product and variant, newest last: bis find
-- --product-id, and what keeps demand_tally's newest row exact.
CREATE INDEX submissions_product ON submissions (product_id, variant_id, created_at, id) WHERE gone_at IS NULL;

-- An online export's rows by id: whether the export gave a row already.
CREATE INDEX export_rows_id ON export_rows (pass_id, id);

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
-- created_at, and the newest submission (created_at, then id), whose titles
-- the answers show. Kept exact by the triggers below, in the transaction
-- that writes the rows; read through the views demand_by_variant and
-- demand_by_product.
CREATE TABLE demand_tally (
	product_id INTEGER,
	variant_id INTEGER,
	live       INTEGER NOT NULL DEFAULT 0,
	pending    INTEGER NOT NULL DEFAULT 0,
	sent       INTEGER NOT NULL DEFAULT 0,
	newest     TEXT,
	oldest     TEXT,
	title_id   INTEGER
);
CREATE UNIQUE INDEX demand_tally_key ON demand_tally (product_id, variant_id);
CREATE INDEX demand_tally_newest ON demand_tally (product_id, newest, title_id);
INSERT INTO demand_tally (product_id, variant_id, live, pending, sent, newest, oldest, title_id)
SELECT product_id, variant_id, count(*), sum(status IS 0), sum(status IS 1), max(created_at), min(created_at),
	(SELECT t.id FROM submissions t WHERE t.product_id IS g.product_id AND t.variant_id IS g.variant_id
		AND t.gone_at IS NULL ORDER BY t.created_at DESC, t.id DESC LIMIT 1)
FROM submissions g WHERE gone_at IS NULL GROUP BY product_id, variant_id;

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

-- A variant's SKU in bis demand --by variant: the one most of its live
-- submissions carry (the newest of equally common ones; submissions
-- without one not counted). Per product, variant and SKU, how many live
-- submissions carry it and the newest created_at among them, kept exact by
-- the triggers below as demand_tally is.
CREATE TABLE demand_sku (
	product_id INTEGER,
	variant_id INTEGER,
	sku        TEXT NOT NULL,
	live       INTEGER NOT NULL DEFAULT 0,
	newest     TEXT
);
CREATE UNIQUE INDEX demand_sku_key ON demand_sku (product_id, variant_id, sku);
CREATE INDEX demand_sku_common ON demand_sku (product_id, variant_id, live, newest);
INSERT INTO demand_sku (product_id, variant_id, sku, live, newest)
SELECT product_id, variant_id, sku, count(*), max(created_at) FROM submissions
WHERE gone_at IS NULL AND coalesce(sku, '') <> '' GROUP BY product_id, variant_id, sku;

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
SELECT d.product_id, t.product_title, d.variant_id, t.variant_title,
	(SELECT s.sku FROM demand_sku s WHERE s.product_id IS d.product_id AND s.variant_id IS d.variant_id
		ORDER BY s.live DESC, s.newest DESC LIMIT 1) AS sku,
	d.pending, d.sent, d.newest, d.oldest
FROM demand_tally d LEFT JOIN submissions t ON t.id = d.title_id;

CREATE VIEW demand_by_product AS
SELECT g.product_id, t.product_title, g.pending, g.sent, g.newest, g.oldest
FROM (SELECT product_id, sum(pending) AS pending, sum(sent) AS sent, max(newest) AS newest, min(oldest) AS oldest,
		(SELECT v.title_id FROM demand_tally v WHERE v.product_id IS d.product_id
			ORDER BY v.newest DESC, v.title_id DESC LIMIT 1) AS title_id
	FROM demand_tally d GROUP BY product_id) g
LEFT JOIN submissions t ON t.id = g.title_id;
`, `
-- Version 9 (issue 24): bis report at a million submissions. What the
-- report counts, per product, variant, SKU, status, e-mail locale (of rows
-- with their detail; '' otherwise) and quarter hour of created_at (UTC;
-- every zone's offset is a multiple of 15 minutes, so a quarter lies in
-- one day of any zone): the live submissions (n), those with their detail,
-- opened, clicked and unsubscribed (of those with their detail), and the
-- oldest created_at. quarter is created_at's first 14 characters and its
-- minute rounded down to 0, 15, 30 or 45 ('2026-11-03T14:15'), which no
-- created_at of the quarter sorts below and every one of the next sorts
-- above; a created_at not of that form is its own quarter. A report counts
-- whole quarters here and reads the rows of the two it cuts. Kept exact by
-- the triggers below in the transaction that writes the rows, like
-- demand_tally.
CREATE TABLE report_tally (
	product_id   INTEGER,
	variant_id   INTEGER,
	sku          TEXT,
	locale       TEXT NOT NULL,
	status       INTEGER,
	quarter      TEXT,
	n            INTEGER NOT NULL DEFAULT 0,
	detailed     INTEGER NOT NULL DEFAULT 0,
	opened       INTEGER NOT NULL DEFAULT 0,
	clicked      INTEGER NOT NULL DEFAULT 0,
	unsubscribed INTEGER NOT NULL DEFAULT 0,
	oldest       TEXT
);
CREATE INDEX report_tally_key ON report_tally (product_id, variant_id, sku, status, locale, quarter);
INSERT INTO report_tally (product_id, variant_id, sku, locale, status, quarter, n, detailed, opened, clicked, unsubscribed, oldest)
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
	FROM submissions WHERE gone_at IS NULL)
GROUP BY product_id, variant_id, sku, l, status, q;

CREATE TRIGGER submissions_report_insert AFTER INSERT ON submissions WHEN new.gone_at IS NULL
BEGIN
	INSERT INTO report_tally (product_id, variant_id, sku, locale, status, quarter)
	SELECT new.product_id, new.variant_id, new.sku, k.l, new.status, k.q
	FROM (SELECT CASE WHEN new.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(new.created_at, 1, 14) || printf('%02d', CAST(substr(new.created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE new.created_at END AS q,
		coalesce(CASE WHEN new.detail_fetched_at IS NOT NULL THEN new.locale END, '') AS l,
		new.detail_fetched_at IS NOT NULL AS d,
		new.detail_fetched_at IS NOT NULL AND new.opened IS NOT NULL AND new.opened NOT IN (0, '0', '') AS o,
		new.detail_fetched_at IS NOT NULL AND new.clicked IS NOT NULL AND new.clicked NOT IN (0, '0', '') AS c,
		new.detail_fetched_at IS NOT NULL AND new.unsubscribe IS 1 AS u) k
	WHERE NOT EXISTS (SELECT 1 FROM report_tally WHERE product_id IS new.product_id AND variant_id IS new.variant_id AND sku IS new.sku AND status IS new.status
		AND locale = k.l AND quarter IS k.q);
	UPDATE report_tally SET n = n + 1, detailed = detailed + k.d, opened = opened + k.o, clicked = clicked + k.c,
		unsubscribed = unsubscribed + k.u,
		oldest = CASE WHEN new.created_at < oldest OR oldest IS NULL THEN new.created_at ELSE oldest END
	FROM (SELECT CASE WHEN new.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(new.created_at, 1, 14) || printf('%02d', CAST(substr(new.created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE new.created_at END AS q,
		coalesce(CASE WHEN new.detail_fetched_at IS NOT NULL THEN new.locale END, '') AS l,
		new.detail_fetched_at IS NOT NULL AS d,
		new.detail_fetched_at IS NOT NULL AND new.opened IS NOT NULL AND new.opened NOT IN (0, '0', '') AS o,
		new.detail_fetched_at IS NOT NULL AND new.clicked IS NOT NULL AND new.clicked NOT IN (0, '0', '') AS c,
		new.detail_fetched_at IS NOT NULL AND new.unsubscribe IS 1 AS u) k
	WHERE product_id IS new.product_id AND variant_id IS new.variant_id AND sku IS new.sku AND status IS new.status
		AND locale = k.l AND quarter IS k.q;
END;

CREATE TRIGGER submissions_report_delete AFTER DELETE ON submissions WHEN old.gone_at IS NULL
BEGIN
	UPDATE report_tally SET n = n - 1, detailed = detailed - k.d, opened = opened - k.o, clicked = clicked - k.c,
		unsubscribed = unsubscribed - k.u
	FROM (SELECT CASE WHEN old.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(old.created_at, 1, 14) || printf('%02d', CAST(substr(old.created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE old.created_at END AS q,
		coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '') AS l,
		old.detail_fetched_at IS NOT NULL AS d,
		old.detail_fetched_at IS NOT NULL AND old.opened IS NOT NULL AND old.opened NOT IN (0, '0', '') AS o,
		old.detail_fetched_at IS NOT NULL AND old.clicked IS NOT NULL AND old.clicked NOT IN (0, '0', '') AS c,
		old.detail_fetched_at IS NOT NULL AND old.unsubscribe IS 1 AS u) k
	WHERE product_id IS old.product_id AND variant_id IS old.variant_id AND sku IS old.sku AND status IS old.status
		AND locale = k.l AND quarter IS k.q;
	DELETE FROM report_tally WHERE n <= 0 AND product_id IS old.product_id AND variant_id IS old.variant_id AND sku IS old.sku
		AND status IS old.status;
	UPDATE report_tally SET oldest = (SELECT min(s.created_at) FROM submissions s WHERE s.gone_at IS NULL
			AND s.product_id IS old.product_id AND s.variant_id IS old.variant_id AND s.created_at >= k.q
			AND s.created_at <= substr(k.q, 1, 14) || char(1114111) AND s.sku IS old.sku AND s.status IS old.status
			AND coalesce(CASE WHEN s.detail_fetched_at IS NOT NULL THEN s.locale END, '') = k.l
			AND CASE WHEN s.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
				THEN substr(s.created_at, 1, 14) || printf('%02d', CAST(substr(s.created_at, 15, 2) AS INTEGER) / 15 * 15)
				ELSE s.created_at END = k.q)
	FROM (SELECT CASE WHEN old.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(old.created_at, 1, 14) || printf('%02d', CAST(substr(old.created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE old.created_at END AS q,
		coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '') AS l,
		old.detail_fetched_at IS NOT NULL AS d,
		old.detail_fetched_at IS NOT NULL AND old.opened IS NOT NULL AND old.opened NOT IN (0, '0', '') AS o,
		old.detail_fetched_at IS NOT NULL AND old.clicked IS NOT NULL AND old.clicked NOT IN (0, '0', '') AS c,
		old.detail_fetched_at IS NOT NULL AND old.unsubscribe IS 1 AS u) k
	WHERE product_id IS old.product_id AND variant_id IS old.variant_id AND sku IS old.sku AND status IS old.status
		AND locale = k.l AND quarter IS k.q AND old.created_at IS oldest;
END;

-- A change of what the tally counts: the row leaves its old count (as the
-- delete trigger does), then joins its new one (as the insert trigger).
CREATE TRIGGER submissions_report_update AFTER UPDATE OF product_id, variant_id, sku, status, created_at, gone_at, detail_fetched_at, locale, opened, clicked, unsubscribe ON submissions
	WHEN old.product_id IS NOT new.product_id OR old.variant_id IS NOT new.variant_id OR old.sku IS NOT new.sku OR old.status IS NOT new.status OR old.created_at IS NOT new.created_at OR old.gone_at IS NOT new.gone_at OR old.detail_fetched_at IS NOT new.detail_fetched_at OR old.locale IS NOT new.locale OR old.opened IS NOT new.opened OR old.clicked IS NOT new.clicked OR old.unsubscribe IS NOT new.unsubscribe
BEGIN
	UPDATE report_tally SET n = n - 1, detailed = detailed - k.d, opened = opened - k.o, clicked = clicked - k.c,
		unsubscribed = unsubscribed - k.u
	FROM (SELECT CASE WHEN old.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(old.created_at, 1, 14) || printf('%02d', CAST(substr(old.created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE old.created_at END AS q,
		coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '') AS l,
		old.detail_fetched_at IS NOT NULL AS d,
		old.detail_fetched_at IS NOT NULL AND old.opened IS NOT NULL AND old.opened NOT IN (0, '0', '') AS o,
		old.detail_fetched_at IS NOT NULL AND old.clicked IS NOT NULL AND old.clicked NOT IN (0, '0', '') AS c,
		old.detail_fetched_at IS NOT NULL AND old.unsubscribe IS 1 AS u) k
	WHERE old.gone_at IS NULL AND product_id IS old.product_id AND variant_id IS old.variant_id AND sku IS old.sku AND status IS old.status
		AND locale = k.l AND quarter IS k.q;
	DELETE FROM report_tally WHERE old.gone_at IS NULL AND n <= 0 AND product_id IS old.product_id AND variant_id IS old.variant_id AND sku IS old.sku
		AND status IS old.status;
	UPDATE report_tally SET oldest = (SELECT min(s.created_at) FROM submissions s WHERE s.gone_at IS NULL
			AND s.product_id IS old.product_id AND s.variant_id IS old.variant_id AND s.created_at >= k.q
			AND s.created_at <= substr(k.q, 1, 14) || char(1114111) AND s.sku IS old.sku AND s.status IS old.status
			AND coalesce(CASE WHEN s.detail_fetched_at IS NOT NULL THEN s.locale END, '') = k.l
			AND CASE WHEN s.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
				THEN substr(s.created_at, 1, 14) || printf('%02d', CAST(substr(s.created_at, 15, 2) AS INTEGER) / 15 * 15)
				ELSE s.created_at END = k.q)
	FROM (SELECT CASE WHEN old.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(old.created_at, 1, 14) || printf('%02d', CAST(substr(old.created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE old.created_at END AS q,
		coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '') AS l,
		old.detail_fetched_at IS NOT NULL AS d,
		old.detail_fetched_at IS NOT NULL AND old.opened IS NOT NULL AND old.opened NOT IN (0, '0', '') AS o,
		old.detail_fetched_at IS NOT NULL AND old.clicked IS NOT NULL AND old.clicked NOT IN (0, '0', '') AS c,
		old.detail_fetched_at IS NOT NULL AND old.unsubscribe IS 1 AS u) k
	WHERE old.gone_at IS NULL AND product_id IS old.product_id AND variant_id IS old.variant_id AND sku IS old.sku AND status IS old.status
		AND locale = k.l AND quarter IS k.q AND old.created_at IS oldest;
	INSERT INTO report_tally (product_id, variant_id, sku, locale, status, quarter)
	SELECT new.product_id, new.variant_id, new.sku, k.l, new.status, k.q
	FROM (SELECT CASE WHEN new.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(new.created_at, 1, 14) || printf('%02d', CAST(substr(new.created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE new.created_at END AS q,
		coalesce(CASE WHEN new.detail_fetched_at IS NOT NULL THEN new.locale END, '') AS l,
		new.detail_fetched_at IS NOT NULL AS d,
		new.detail_fetched_at IS NOT NULL AND new.opened IS NOT NULL AND new.opened NOT IN (0, '0', '') AS o,
		new.detail_fetched_at IS NOT NULL AND new.clicked IS NOT NULL AND new.clicked NOT IN (0, '0', '') AS c,
		new.detail_fetched_at IS NOT NULL AND new.unsubscribe IS 1 AS u) k
	WHERE new.gone_at IS NULL AND NOT EXISTS (SELECT 1 FROM report_tally WHERE product_id IS new.product_id AND variant_id IS new.variant_id AND sku IS new.sku AND status IS new.status
		AND locale = k.l AND quarter IS k.q);
	UPDATE report_tally SET n = n + 1, detailed = detailed + k.d, opened = opened + k.o, clicked = clicked + k.c,
		unsubscribed = unsubscribed + k.u,
		oldest = CASE WHEN new.created_at < oldest OR oldest IS NULL THEN new.created_at ELSE oldest END
	FROM (SELECT CASE WHEN new.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(new.created_at, 1, 14) || printf('%02d', CAST(substr(new.created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE new.created_at END AS q,
		coalesce(CASE WHEN new.detail_fetched_at IS NOT NULL THEN new.locale END, '') AS l,
		new.detail_fetched_at IS NOT NULL AS d,
		new.detail_fetched_at IS NOT NULL AND new.opened IS NOT NULL AND new.opened NOT IN (0, '0', '') AS o,
		new.detail_fetched_at IS NOT NULL AND new.clicked IS NOT NULL AND new.clicked NOT IN (0, '0', '') AS c,
		new.detail_fetched_at IS NOT NULL AND new.unsubscribe IS 1 AS u) k
	WHERE new.gone_at IS NULL AND product_id IS new.product_id AND variant_id IS new.variant_id AND sku IS new.sku AND status IS new.status
		AND locale = k.l AND quarter IS k.q;
END;
`, `
-- Version 10 (issue 24): bis report's engagement (sends, opens and clicks
-- per period; the times to notify and to click) reads each sent submission
-- that has its detail. This index holds those rows alone, with every column
-- that read uses (the last three only so that SQLite reads the index
-- alone), so the report reads them and not every row's entry in
-- submissions_report: a sixth of the entries, a quarter of the width.
CREATE INDEX submissions_engagement ON submissions (created_at, last_sent, opened, clicked, product_id, variant_id, sku,
	status, detail_fetched_at, gone_at) WHERE gone_at IS NULL AND status = 1 AND detail_fetched_at IS NOT NULL;
`, `
-- Version 11 changes the PostgreSQL mirror only (pgVersion11: the views a
-- store's connections read, a first pass's deferred tallies, new rows
-- tallied once per statement); the number means the same schema on both
-- backends.
`, `
-- Version 12 (issue 23): bis demand reads its titles from demand_tally.
-- The views read each group's titles from its newest submission, found by
-- id: a read of the id index and one of the table per group, over a file
-- of a million rows (1,031 groups: ~50 ms of a cold process, mostly page
-- faults). The tally now keeps the titles of its title row, set whenever
-- title_id changes (by these triggers on demand_tally, whoever writes it:
-- the submissions' triggers and the fills that end a first pass) and when
-- that row's titles change.
ALTER TABLE demand_tally ADD COLUMN product_title TEXT;
ALTER TABLE demand_tally ADD COLUMN variant_title TEXT;
UPDATE demand_tally SET (product_title, variant_title) =
	(SELECT t.product_title, t.variant_title FROM submissions t WHERE t.id = demand_tally.title_id);

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

-- The same columns as version 8's views, read from the tallies alone.
DROP VIEW demand_by_variant;
CREATE VIEW demand_by_variant AS
SELECT d.product_id, d.product_title, d.variant_id, d.variant_title,
	(SELECT s.sku FROM demand_sku s WHERE s.product_id IS d.product_id AND s.variant_id IS d.variant_id
		ORDER BY s.live DESC, s.newest DESC LIMIT 1) AS sku,
	d.pending, d.sent, d.newest, d.oldest
FROM demand_tally d;

DROP VIEW demand_by_product;
CREATE VIEW demand_by_product AS
SELECT g.product_id,
	(SELECT v.product_title FROM demand_tally v WHERE v.product_id IS g.product_id
		ORDER BY v.newest DESC, v.title_id DESC LIMIT 1) AS product_title,
	g.pending, g.sent, g.newest, g.oldest
FROM (SELECT product_id, sum(pending) AS pending, sum(sent) AS sent, max(newest) AS newest, min(oldest) AS oldest
	FROM demand_tally GROUP BY product_id) g;
`, `
-- Version 13 changes the PostgreSQL mirror only (pgVersion13: --email and
-- --sku fold ASCII case as SQLite's NOCASE does, without an ICU collation).
`, `
-- Version 14 (issue 23): two answers read their rows in the order they
-- print them instead of sorting them. SQLite's sorter copies every row it
-- sorts, list_json included, into memory it grows by reallocating: in a
-- process just started every page of it is a fresh page fault (~20 us
-- each), 140 faults of bis demand --by variant at a million submissions,
-- 70 of a bis find --email of 279 rows.
--
-- bis demand's order (most pending first, then the newest), declared
-- descending so that groups equal in both come in the table's order, as
-- the sorter gave them.
CREATE INDEX demand_tally_pending ON demand_tally (pending DESC, newest DESC);

-- bis find --email: a person's submissions, newest first, read backwards
-- from the index; with id still, so that a pattern reads the index alone
-- for the ids. A first pass under way keeps indexes to build when it ends
-- (bulk_deferred): this one is made now instead, with the new columns.
DROP INDEX IF EXISTS submissions_email;
DELETE FROM bulk_deferred WHERE tbl = 'submissions' AND name = 'submissions_email';
CREATE INDEX submissions_email ON submissions (customer_email COLLATE NOCASE, created_at, id);
`, `
-- Version 15 changes the PostgreSQL mirror only (pgVersion15: the test of
-- a store's deferred tallies, called by its triggers, is planned once).
`, `
-- Version 16 (issue 23): an online export's order in one B-tree instead of
-- three. export_rows was a rowid table keyed (pass_id, seq) with an index
-- (pass_id, id), and every page's commit wrote all three. Keyed (pass_id,
-- id) without a rowid, whether the export gave a row is a lookup of its
-- key, and a resume sorts the pass's rows by seq once. A row recorded twice
-- (no export records one twice) keeps its first place.
CREATE TABLE export_rows_v16 (
	pass_id INTEGER NOT NULL REFERENCES sync_journal (id) ON DELETE CASCADE,
	seq     INTEGER NOT NULL,
	id      INTEGER NOT NULL,
	PRIMARY KEY (pass_id, id)
) WITHOUT ROWID;
INSERT OR IGNORE INTO export_rows_v16 (pass_id, seq, id) SELECT pass_id, seq, id FROM export_rows ORDER BY pass_id, seq;
DROP TABLE export_rows;
ALTER TABLE export_rows_v16 RENAME TO export_rows;
`, `
-- Version 17 changes the PostgreSQL mirror only (pgVersion17: a store's
-- first pass into a table no store has rows in yet builds its indexes
-- when it ends, as SQLite's first pass already does).
`, `
-- Version 18 (issue 23): export_rows without its foreign key to
-- sync_journal. No pass is ever deleted, so its ON DELETE CASCADE never
-- ran, and with foreign_keys on it cost every row an export records a
-- lookup of its pass, and made the DELETE of the whole table that ends an
-- export delete the rows one by one (0.1 s at 100,000 rows) instead of
-- dropping its pages at once.
CREATE TABLE export_rows_v18 (
	pass_id INTEGER NOT NULL,
	seq     INTEGER NOT NULL,
	id      INTEGER NOT NULL,
	PRIMARY KEY (pass_id, id)
) WITHOUT ROWID;
INSERT INTO export_rows_v18 (pass_id, seq, id) SELECT pass_id, seq, id FROM export_rows;
DROP TABLE export_rows;
ALTER TABLE export_rows_v18 RENAME TO export_rows;
`, `
-- Version 19 changes the PostgreSQL mirror only (pgVersion19: the
-- recount that ends a first pass keeps its plans, and an INSERT's
-- statement trigger asks once per store whether its tallies wait).
`}

// SchemaVersion is the schema this storectl writes.
var SchemaVersion = len(migrations)

// migrate brings the database to SchemaVersion, refusing one made by a
// newer storectl: its tables may mean things this one does not know.
func migrate(ctx context.Context, db *sql.DB, path string, readOnly bool) error {
	var version int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("read the mirror's schema version (%s): %w", path, err)
	}
	if version > SchemaVersion {
		return &NewerSchemaError{Path: path, Version: version}
	}
	if version == SchemaVersion || readOnly && version == 0 {
		return nil
	}
	if readOnly {
		return &OlderSchemaError{Path: path, Version: version}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for v := version; v < SchemaVersion; v++ {
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			return fmt.Errorf("upgrade the mirror's schema to version %d: %w", v+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
}
