package mirror

// pgMigrations build the PostgreSQL mirror: pgMigrations[i] takes the
// database from version i to i+1, as migrations does for SQLite, and the
// two lists keep the same numbers (a version means the same tables and
// views on both; TestMigrationListsAligned holds them together). Append,
// never edit.
//
// One database holds many stores in one schema, storectl: every mirrored
// table has a store column (the store's base URL, as sameStore compares
// them) leading its primary key and its indexes, so that an agency asks
// across its stores in one query (SELECT store, count(*) FROM
// storectl.submissions WHERE status = 0 GROUP BY store) and a BI tool sees
// one set of tables with a store to filter on. A schema per store would
// have given N copies of every table, a union view to rebuild at each new
// store, and a grant for each.
//
// Ids are BIGINT (2^53+1 exact). Each row keeps the JSON as sent (list_json,
// detail_json: text, byte for byte) next to the same as jsonb (list_jsonb,
// detail_jsonb, generated from it) for SQL that reaches into it. The
// mirror's own times are the same fixed-width UTC text as in SQLite.
//
// Besides the mirror: meta (the schema version), stores (which stores the
// database holds), leases (the one writer of each store), pace (each
// token's pacing window, shared by every machine) and pace_secret (the key
// pace's rows are named with).
var pgMigrations = []string{`
-- SQLite's COLLATE NOCASE (bis find --email, --sku): equal whatever the case.
CREATE COLLATION storectl.nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false);

-- SQLite's functions the mirror's SQL uses, so that it runs as written:
-- julianday of the API's ISO 8601 text (NULL when it does not parse, as in
-- SQLite) and sum over a condition (true counts 1).
CREATE FUNCTION storectl.julianday(t text) RETURNS double precision LANGUAGE plpgsql STABLE AS $$
BEGIN
	RETURN extract(epoch FROM t::timestamptz) / 86400 + 2440587.5;
EXCEPTION WHEN others THEN
	RETURN NULL;
END $$;
CREATE FUNCTION storectl.count_true(n bigint, b boolean) RETURNS bigint LANGUAGE sql IMMUTABLE AS
	'SELECT CASE WHEN b IS NULL THEN n ELSE coalesce(n, 0) + b::int END';
CREATE AGGREGATE storectl.sum(boolean) (sfunc = storectl.count_true, stype = bigint);

CREATE TABLE storectl.meta (
	key   text PRIMARY KEY,
	value text NOT NULL
);

CREATE TABLE storectl.stores (
	store      text PRIMARY KEY,
	base_url   text NOT NULL,
	created_at text NOT NULL
);

-- Each store's own settings and facts, as SQLite's store table (key, value).
CREATE TABLE storectl.store (
	store text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	key   text NOT NULL,
	value text,
	PRIMARY KEY (store, key)
);

CREATE TABLE storectl.leases (
	store        text PRIMARY KEY REFERENCES storectl.stores (store) ON DELETE CASCADE,
	holder       text NOT NULL,
	host         text NOT NULL,
	pid          integer NOT NULL,
	backend_pid  integer NOT NULL,
	purpose      text NOT NULL,
	started_at   timestamptz NOT NULL,
	heartbeat_at timestamptz NOT NULL,
	expires_at   timestamptz NOT NULL
);

CREATE TABLE storectl.pace (
	token_key  text PRIMARY KEY,
	state      jsonb NOT NULL,
	updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE storectl.pace_secret (
	only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
	secret   text NOT NULL
);
INSERT INTO storectl.pace_secret (secret) VALUES (replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));

CREATE TABLE storectl.submissions (
	store             text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	id                bigint NOT NULL,
	product_id        bigint,
	variant_id        bigint,
	customer_email    text,
	customer_phone    text,
	product_title     text,
	variant_title     text,
	sku               text,
	status            integer,
	created_at        text,
	updated_at        text,
	inventory_id      text,
	last_sent         text,
	unsubscribe       integer,
	content           text,
	locale            text,
	opened            text,
	clicked           text,
	note              text,
	phone_digits      text,
	list_json         text NOT NULL,
	list_jsonb        jsonb GENERATED ALWAYS AS (list_json::jsonb) STORED,
	list_fetched_at   text NOT NULL,
	detail_json       text,
	detail_jsonb      jsonb GENERATED ALWAYS AS (detail_json::jsonb) STORED,
	detail_fetched_at text,
	detail_for        text,
	first_seen_at     text NOT NULL,
	last_seen_at      text NOT NULL,
	gone_at           text,
	list_pos          bigint,
	PRIMARY KEY (store, id)
);
CREATE INDEX submissions_email   ON storectl.submissions (store, customer_email COLLATE storectl.nocase);
CREATE INDEX submissions_phone   ON storectl.submissions (store, phone_digits);
CREATE INDEX submissions_product ON storectl.submissions (store, product_id, created_at, status) WHERE gone_at IS NULL;
CREATE INDEX submissions_variant ON storectl.submissions (store, variant_id, product_id, created_at, status) WHERE gone_at IS NULL;
CREATE INDEX submissions_sku     ON storectl.submissions (store, sku COLLATE storectl.nocase);
CREATE INDEX submissions_created ON storectl.submissions (store, created_at);
CREATE INDEX submissions_list    ON storectl.submissions (store, list_pos, created_at);

CREATE TABLE storectl.offers (
	store                                         text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	id                                            bigint NOT NULL,
	offer_name                                    text,
	start_date                                    text,
	end_date                                      text,
	countdown_before_preorder_start               integer,
	countdown_before_preorder_end                 integer,
	apply_to                                      text,
	preorder_condition_inventory                  text,
	fulfillment_status                            text,
	fulfillment_shipping_date                     text,
	fulfillment_after_checkout                    text,
	turn_on_continue_selling_when_preorder_start  integer,
	turn_off_continue_selling_when_preorder_end   integer,
	status                                        integer,
	collection_id                                 bigint,
	collection_name                               text,
	full_payment_discount_type                    text,
	full_payment_discount_value                   numeric,
	partial_payment_value                         numeric,
	partial_payment_value_type                    text,
	partial_payment_discount_value                numeric,
	partial_payment_discount_type                 text,
	partial_payment_remaining_balance_charge_date text,
	updated_at                                    text,
	list_json                                     text NOT NULL,
	list_jsonb                                    jsonb GENERATED ALWAYS AS (list_json::jsonb) STORED,
	list_fetched_at                               text NOT NULL,
	detail_json                                   text,
	detail_jsonb                                  jsonb GENERATED ALWAYS AS (detail_json::jsonb) STORED,
	detail_fetched_at                             text,
	detail_for                                    text,
	first_seen_at                                 text NOT NULL,
	last_seen_at                                  text NOT NULL,
	gone_at                                       text,
	PRIMARY KEY (store, id)
);

CREATE TABLE storectl.offer_products (
	store      text NOT NULL,
	offer_id   bigint NOT NULL,
	position   integer NOT NULL,
	product_id bigint,
	variant_id bigint,
	"limit"    bigint,
	PRIMARY KEY (store, offer_id, position),
	FOREIGN KEY (store, offer_id) REFERENCES storectl.offers (store, id) ON DELETE CASCADE
);
CREATE INDEX offer_products_variant ON storectl.offer_products (store, variant_id);

CREATE TABLE storectl.priority_rows (
	store               text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	id                  bigint NOT NULL,
	product_id          bigint,
	variant_id          bigint,
	profile_id          bigint,
	priority_profile_id bigint,
	priority_type       text,
	all_profile_ids     text,
	is_manual_assign    integer,
	"limit"             bigint,
	end_quantity        bigint,
	units_sold          bigint,
	updated_at          text,
	list_json           text NOT NULL,
	list_jsonb          jsonb GENERATED ALWAYS AS (list_json::jsonb) STORED,
	list_fetched_at     text NOT NULL,
	first_seen_at       text NOT NULL,
	last_seen_at        text NOT NULL,
	gone_at             text,
	PRIMARY KEY (store, id)
);
CREATE INDEX priority_rows_product ON storectl.priority_rows (store, product_id);
CREATE INDEX priority_rows_variant ON storectl.priority_rows (store, variant_id);

CREATE TABLE storectl.rules (
	store             text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	id                bigint NOT NULL,
	name              text,
	start_date        text,
	end_date          text,
	show_countdown    integer,
	apply_to          text,
	product_ids       text,
	variant_ids       text,
	collection_id     bigint,
	translations      text,
	status            integer,
	created_at        text,
	updated_at        text,
	list_json         text NOT NULL,
	list_jsonb        jsonb GENERATED ALWAYS AS (list_json::jsonb) STORED,
	list_fetched_at   text NOT NULL,
	detail_json       text,
	detail_jsonb      jsonb GENERATED ALWAYS AS (detail_json::jsonb) STORED,
	detail_fetched_at text,
	detail_for        text,
	first_seen_at     text NOT NULL,
	last_seen_at      text NOT NULL,
	gone_at           text,
	PRIMARY KEY (store, id)
);
CREATE INDEX rules_name ON storectl.rules (store, name);

CREATE TABLE storectl.form_fields (
	store          text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	position       integer NOT NULL,
	id             text NOT NULL,
	label          text,
	placeholder    text,
	type           text,
	required       integer,
	hidden         integer,
	options        text,
	"defaultValue" text,
	field_json     text NOT NULL,
	fetched_at     text NOT NULL,
	PRIMARY KEY (store, id)
);

CREATE TABLE storectl.sync_journal (
	store        text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	resource     text NOT NULL,
	kind         text NOT NULL,
	purpose      text NOT NULL,
	details      integer NOT NULL DEFAULT 0,
	started_at   text NOT NULL,
	updated_at   text NOT NULL,
	finished_at  text,
	outcome      text,
	walk         text NOT NULL DEFAULT '{}',
	rows_new     integer NOT NULL DEFAULT 0,
	rows_changed integer NOT NULL DEFAULT 0,
	rows_gone    integer NOT NULL DEFAULT 0,
	newest_first integer,
	note         text
);
CREATE INDEX sync_journal_open ON storectl.sync_journal (store, resource, purpose, finished_at);

CREATE TABLE storectl.export_rows (
	pass_id bigint NOT NULL REFERENCES storectl.sync_journal (id) ON DELETE CASCADE,
	seq     integer NOT NULL,
	id      bigint NOT NULL,
	PRIMARY KEY (pass_id, seq)
);

CREATE TABLE storectl.odd_rows (
	store         text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	resource      text NOT NULL,
	id            text NOT NULL,
	list_json     text NOT NULL,
	first_seen_at text NOT NULL,
	last_seen_at  text NOT NULL,
	PRIMARY KEY (store, resource, id)
);
`,
	// Versions 2 to 4 of the SQLite mirror (demand's covering indexes,
	// list_pos, odd_rows) are part of version 1 here.
	`-- version 2: in version 1`,
	`-- version 3: in version 1`,
	`-- version 4: in version 1`,
	`
-- storectl watch: the watched lists, the outbox of events, the alerts.
CREATE TABLE storectl.watch_lists (
	store         text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	resource      text NOT NULL,
	watched_since text NOT NULL,
	clock_at      text,
	PRIMARY KEY (store, resource)
);
CREATE TABLE storectl.outbox (
	store           text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	seq             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	id              text NOT NULL,
	type            text NOT NULL,
	resource        text NOT NULL,
	row_id          text NOT NULL,
	occurred_at     text NOT NULL,
	detected_at     text NOT NULL,
	data            text NOT NULL,
	state           text NOT NULL DEFAULT 'pending',
	attempts        integer NOT NULL DEFAULT 0,
	first_failed_at text,
	next_attempt_at text,
	last_error      text,
	delivered_at    text,
	UNIQUE (store, id)
);
CREATE INDEX outbox_state ON storectl.outbox (store, state, seq);
CREATE TABLE storectl.watch_alerts (
	store     text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	alert     text NOT NULL,
	key       text NOT NULL,
	above     integer NOT NULL,
	crossings integer NOT NULL DEFAULT 0,
	PRIMARY KEY (store, alert, key)
);
`, `
-- The budgeted detail refresh: when a detail request last left for the row.
ALTER TABLE storectl.submissions ADD COLUMN detail_sent_at text;
`, `
-- bis report reads the columns it counts from this index (SQLite's version
-- 7), the store first as in every index here.
CREATE INDEX submissions_report ON storectl.submissions (store, created_at, status, product_id, variant_id, detail_fetched_at,
	locale, unsubscribe, opened, clicked, last_sent, gone_at, sku);
`, pgVersion8, pgVersion9, `
-- bis report's engagement read (SQLite's version 10): the live sent rows
-- with their detail, with the columns it reads.
CREATE INDEX submissions_engagement ON storectl.submissions (store, created_at, last_sent, opened, clicked, product_id, variant_id, sku)
	WHERE gone_at IS NULL AND status = 1 AND detail_fetched_at IS NOT NULL;
`, pgVersion11, `
-- Version 12 changes the SQLite mirror only (demand_tally keeps its title
-- row's titles, so that a cold process answering bis demand does not read
-- a table page per group of a file on disk); PostgreSQL's views join the
-- titles by primary key from its shared buffers. The number means the same
-- schema on both backends.
SELECT 1;
`, pgVersion13, `
-- Version 14 changes the SQLite mirror only (bis demand --by variant and
-- bis find --email read their rows in order from an index instead of
-- sorting them): SQLite sorts in the answering process, a cold one whose
-- every fresh page of sorter memory is a page fault; PostgreSQL sorts
-- these few hundred to thousand rows in its server's work_mem, a process
-- already running, and an index more would cost every write of a mirror a
-- team shares. The number means the same schema on both backends.
SELECT 1;
`, pgVersion15, `
-- Version 16 changes the SQLite mirror only (export_rows keyed by
-- (pass_id, id) without a rowid: one B-tree a page's commit writes instead
-- of three). PostgreSQL's export_rows, shared by every store's exports,
-- keeps its key and index. The number means the same schema on both
-- backends.
SELECT 1;
`, pgVersion17, `
-- Version 18 changes the SQLite mirror only (export_rows without its
-- foreign key to sync_journal, which with foreign_keys on cost SQLite a
-- lookup per row recorded and a row-by-row DELETE when an export ended).
-- PostgreSQL's export_rows, shared by every store's exports, keeps its key:
-- it deletes an ended export's rows by pass, never the whole table. The
-- number means the same schema on both backends.
SELECT 1;
`, pgVersion19,
}

// PostgresSchemaVersion is the schema version the PostgreSQL mirror
// reaches: SQLite's (TestMigrationListsAligned).
func PostgresSchemaVersion() int { return len(pgMigrations) }
