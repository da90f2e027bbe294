package postgres

import "github.com/storectl/storectl/internal/mirror/backend"

// Migrations build the PostgreSQL mirror: Migrations[0] is the baseline
// (version baselineVersion), run in a database without the schema;
// Migrations[i] takes it from version baselineVersion+i-1 to
// baselineVersion+i. Append, never edit (TestMigrationsArePinned). The
// versions before the baseline were development versions; a database
// holding one is refused (BaselineError).
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
// Besides the mirror: meta (the schema version, and each schema part's:
// backend.Part), stores (which stores the database holds), leases (the one
// writer of each store), pace (each token's pacing window, shared by every
// machine) and pace_secret (the key pace's rows are named with).
var Migrations = []string{pgBaseline, pgStorableJSON, pgJSONGiven, pgForgetStore, pgStoreKeyPerStatement, pgTalliesWait}

// baselineVersion is the PostgreSQL baseline's version: one past SQLite's,
// since development version 20 of the PostgreSQL schema still imitated
// SQLite's functions (julianday, printf, json_each, sum over a condition)
// for SQL rewritten as it was sent; the baseline is the schema without
// them, and a database of version 20 is a development version's.
const baselineVersion = backend.BaselineVersion + 1

// SchemaVersion is the schema version the PostgreSQL mirror reaches.
func SchemaVersion() int { return baselineVersion + len(Migrations) - 1 }

const pgBaseline = `
-- One of the API's datetimes (ISO 8601, with or without a fraction and a
-- zone; without one, UTC: the connections' time zone) as an instant, NULL
-- for text that is not one, so that a comparison with it is false rather
-- than an error that stops the statement (the detail refresh and watch
-- compare the API's times as instants).
CREATE FUNCTION storectl.api_time(t text) RETURNS timestamptz LANGUAGE plpgsql STABLE AS $$
BEGIN
	RETURN t::timestamptz;
EXCEPTION WHEN others THEN
	RETURN NULL;
END $$;

-- bis find's --email and --sku compare as SQLite's NOCASE does, ASCII
-- letters folded and nothing else, through an expression of the column
-- that the planner inlines, so that the indexes on it serve them (an ICU
-- collation cost a reader's fresh server process some 12 ms to open, and
-- also folded letters NOCASE does not).
CREATE FUNCTION storectl.fold_case(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
	RETURN translate(t, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz');

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
	detail_sent_at    text,
	-- Compared byte by byte, as SQLite does: bis find's range of a number
	-- without its country code (digits up to ':') must not depend on the
	-- database's locale.
	phone_reversed    text COLLATE "C",
	seen_by           bigint,
	PRIMARY KEY (store, id)
);
CREATE INDEX submissions_email   ON storectl.submissions (store, storectl.fold_case(customer_email), id);
CREATE INDEX submissions_phone   ON storectl.submissions (store, phone_reversed);
CREATE INDEX submissions_variant ON storectl.submissions (store, variant_id, created_at);
CREATE INDEX submissions_sku     ON storectl.submissions (store, storectl.fold_case(sku));
CREATE INDEX submissions_created ON storectl.submissions (store, created_at);
CREATE INDEX submissions_list    ON storectl.submissions (store, list_pos, created_at);
CREATE INDEX submissions_product ON storectl.submissions (store, product_id, variant_id, created_at, id) WHERE gone_at IS NULL;

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
	seen_by                                       bigint,
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
	seen_by             bigint,
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
	seen_by           bigint,
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
CREATE INDEX export_rows_id ON storectl.export_rows (pass_id, id);

CREATE TABLE storectl.odd_rows (
	store         text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	resource      text NOT NULL,
	id            text NOT NULL,
	list_json     text NOT NULL,
	first_seen_at text NOT NULL,
	last_seen_at  text NOT NULL,
	seen_by       bigint,
	PRIMARY KEY (store, resource, id)
);

-- What a store's first pass deferred (its tallies: a 'recount' row; the
-- table's indexes: 'index' rows, whose definitions only the owner keeps,
-- in storectl_private.deferred_indexes).
CREATE TABLE storectl.bulk_deferred (
	store text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	tbl   text NOT NULL,
	kind  text NOT NULL,
	name  text NOT NULL,
	sql   text NOT NULL,
	PRIMARY KEY (store, tbl, name)
);

-- bis demand's tallies, as SQLite's, one row per store, product and
-- variant (and SKU): a NULL product or variant is a group of its own
-- (NULLS NOT DISTINCT). Kept exact by the triggers below in the transaction
-- that writes the submissions.
CREATE TABLE storectl.demand_tally (
	store      text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	product_id bigint,
	variant_id bigint,
	live       integer NOT NULL DEFAULT 0,
	pending    integer NOT NULL DEFAULT 0,
	sent       integer NOT NULL DEFAULT 0,
	newest     text,
	oldest     text,
	title_id   bigint,
	CONSTRAINT demand_tally_key UNIQUE NULLS NOT DISTINCT (store, product_id, variant_id)
);
CREATE INDEX demand_tally_newest ON storectl.demand_tally (store, product_id, newest, title_id);

CREATE TABLE storectl.demand_sku (
	store      text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	product_id bigint,
	variant_id bigint,
	sku        text NOT NULL,
	live       integer NOT NULL DEFAULT 0,
	newest     text,
	CONSTRAINT demand_sku_key UNIQUE NULLS NOT DISTINCT (store, product_id, variant_id, sku)
);
CREATE INDEX demand_sku_common ON storectl.demand_sku (store, product_id, variant_id, live, newest);

-- The live rows of a group, through submissions_product: = where the ids
-- are known (an index seek), IS NOT DISTINCT FROM for a NULL one.
CREATE FUNCTION storectl.live_group(s text, p bigint, v bigint)
RETURNS TABLE (created_at text, id bigint, sku text, status integer, locale text, detail_fetched_at text)
LANGUAGE plpgsql STABLE AS $$
BEGIN
	IF p IS NOT NULL AND v IS NOT NULL THEN
		RETURN QUERY SELECT t.created_at, t.id, t.sku, t.status, t.locale, t.detail_fetched_at FROM storectl.submissions t
			WHERE t.store = s AND t.product_id = p AND t.variant_id = v AND t.gone_at IS NULL;
	ELSE
		RETURN QUERY SELECT t.created_at, t.id, t.sku, t.status, t.locale, t.detail_fetched_at FROM storectl.submissions t
			WHERE t.store = s AND t.product_id IS NOT DISTINCT FROM p AND t.variant_id IS NOT DISTINCT FROM v AND t.gone_at IS NULL;
	END IF;
END $$;

-- A live row joins its group's tally (SQLite's insert trigger).
CREATE FUNCTION storectl.demand_join(r storectl.submissions) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO storectl.demand_tally AS d (store, product_id, variant_id, live, pending, sent, newest, oldest, title_id)
	VALUES (r.store, r.product_id, r.variant_id, 1, (r.status IS NOT DISTINCT FROM 0)::int, (r.status IS NOT DISTINCT FROM 1)::int,
		r.created_at, r.created_at, r.id)
	ON CONFLICT ON CONSTRAINT demand_tally_key DO UPDATE SET live = d.live + 1, pending = d.pending + excluded.pending,
		sent = d.sent + excluded.sent,
		newest = CASE WHEN r.created_at > d.newest OR d.newest IS NULL THEN r.created_at ELSE d.newest END,
		oldest = CASE WHEN r.created_at < d.oldest OR d.oldest IS NULL THEN r.created_at ELSE d.oldest END,
		title_id = CASE WHEN d.title_id IS NULL OR r.created_at > d.newest OR d.newest IS NULL AND r.created_at IS NOT NULL
			OR r.created_at IS NOT DISTINCT FROM d.newest AND r.id > d.title_id THEN r.id ELSE d.title_id END;
END $$;

-- A live row leaves its group's tally (SQLite's delete trigger): the
-- group goes with its last row; its newest, oldest and title row are
-- counted again when the row was one of them.
CREATE FUNCTION storectl.demand_leave(r storectl.submissions) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	at tid;
	d storectl.demand_tally;
BEGIN
	INSERT INTO storectl.demand_tally AS t (store, product_id, variant_id) VALUES (r.store, r.product_id, r.variant_id)
	ON CONFLICT ON CONSTRAINT demand_tally_key DO UPDATE SET live = t.live - 1,
		pending = t.pending - (r.status IS NOT DISTINCT FROM 0)::int, sent = t.sent - (r.status IS NOT DISTINCT FROM 1)::int
	RETURNING t.ctid, t.* INTO at, d.store, d.product_id, d.variant_id, d.live, d.pending, d.sent, d.newest, d.oldest, d.title_id;
	IF d.live <= 0 THEN
		DELETE FROM storectl.demand_tally WHERE ctid = at;
	ELSIF r.created_at IS NOT DISTINCT FROM d.newest OR r.created_at IS NOT DISTINCT FROM d.oldest OR r.id IS NOT DISTINCT FROM d.title_id THEN
		UPDATE storectl.demand_tally SET (newest, oldest, title_id) = (
			SELECT max(g.created_at), min(g.created_at), (array_agg(g.id ORDER BY g.created_at DESC NULLS LAST, g.id DESC))[1]
			FROM storectl.live_group(r.store, r.product_id, r.variant_id) g)
		WHERE ctid = at;
	END IF;
END $$;

-- demand_sku's join and leave, as demand_tally's: rows with a SKU only.
CREATE FUNCTION storectl.demand_sku_join(r storectl.submissions) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO storectl.demand_sku AS d (store, product_id, variant_id, sku, live, newest)
	VALUES (r.store, r.product_id, r.variant_id, r.sku, 1, r.created_at)
	ON CONFLICT ON CONSTRAINT demand_sku_key DO UPDATE SET live = d.live + 1,
		newest = CASE WHEN r.created_at > d.newest OR d.newest IS NULL THEN r.created_at ELSE d.newest END;
END $$;

CREATE FUNCTION storectl.demand_sku_leave(r storectl.submissions) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	at tid;
	left_live integer;
	was_newest text;
BEGIN
	INSERT INTO storectl.demand_sku AS t (store, product_id, variant_id, sku) VALUES (r.store, r.product_id, r.variant_id, r.sku)
	ON CONFLICT ON CONSTRAINT demand_sku_key DO UPDATE SET live = t.live - 1
	RETURNING t.ctid, t.live, t.newest INTO at, left_live, was_newest;
	IF left_live <= 0 THEN
		DELETE FROM storectl.demand_sku WHERE ctid = at;
	ELSIF r.created_at IS NOT DISTINCT FROM was_newest THEN
		UPDATE storectl.demand_sku SET newest = (SELECT max(g.created_at)
			FROM storectl.live_group(r.store, r.product_id, r.variant_id) g WHERE g.sku = r.sku)
		WHERE ctid = at;
	END IF;
END $$;

-- Whether the store's tallies wait for its first pass to end (a
-- 'recount' row of the store in bulk_deferred): PL/pgSQL, whose statement
-- is planned once per connection, not within every statement that asks.
CREATE FUNCTION storectl.tallies_deferred(s text) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
	RETURN EXISTS (SELECT 1 FROM storectl.bulk_deferred b WHERE b.store = s AND b.tbl = 'submissions' AND b.kind = 'recount');
END $$;

-- The row triggers of updates and deletes: the old row leaves what it
-- counted in, the new row joins (an update does both when what the tally
-- or the SKU count reads changed), leaving out a store whose tallies are
-- deferred (a first pass's: count_tallies counts them when it ends).
CREATE FUNCTION storectl.submissions_demand() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	tally_moved boolean := TG_OP <> 'UPDATE' OR (OLD.product_id, OLD.variant_id, OLD.status, OLD.created_at, OLD.gone_at)
		IS DISTINCT FROM (NEW.product_id, NEW.variant_id, NEW.status, NEW.created_at, NEW.gone_at);
	sku_moved boolean := TG_OP <> 'UPDATE' OR (OLD.product_id, OLD.variant_id, OLD.sku, OLD.created_at, OLD.gone_at)
		IS DISTINCT FROM (NEW.product_id, NEW.variant_id, NEW.sku, NEW.created_at, NEW.gone_at);
BEGIN
	IF storectl.tallies_deferred(coalesce(NEW.store, OLD.store)) THEN
		RETURN NULL;
	END IF;
	IF TG_OP <> 'INSERT' AND OLD.gone_at IS NULL THEN
		IF tally_moved THEN PERFORM storectl.demand_leave(OLD); END IF;
		IF sku_moved AND coalesce(OLD.sku, '') <> '' THEN PERFORM storectl.demand_sku_leave(OLD); END IF;
	END IF;
	IF TG_OP <> 'DELETE' AND NEW.gone_at IS NULL THEN
		IF tally_moved THEN PERFORM storectl.demand_join(NEW); END IF;
		IF sku_moved AND coalesce(NEW.sku, '') <> '' THEN PERFORM storectl.demand_sku_join(NEW); END IF;
	END IF;
	RETURN NULL;
END $$;

CREATE TRIGGER submissions_demand_delete AFTER DELETE ON storectl.submissions
	FOR EACH ROW WHEN (OLD.gone_at IS NULL) EXECUTE FUNCTION storectl.submissions_demand();
CREATE TRIGGER submissions_demand_update AFTER UPDATE OF product_id, variant_id, status, sku, created_at, gone_at ON storectl.submissions
	FOR EACH ROW WHEN ((OLD.product_id, OLD.variant_id, OLD.status, OLD.sku, OLD.created_at, OLD.gone_at)
		IS DISTINCT FROM (NEW.product_id, NEW.variant_id, NEW.status, NEW.sku, NEW.created_at, NEW.gone_at))
	EXECUTE FUNCTION storectl.submissions_demand();

-- Rows an INSERT brings are counted once per statement (a trigger FOR
-- EACH STATEMENT reading the statement's new rows) instead of once per
-- row: a page's rows are one statement. What a group ends with is what
-- the row triggers would give it: counts summed, newest the latest
-- created_at, oldest the earliest, the title row the newest's (the
-- highest id among equals). It asks once per store whether the store's
-- tallies wait.
CREATE FUNCTION storectl.submissions_joined() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	counted text[]; -- the stores among the statement's live rows whose tallies are kept row by row
BEGIN
	-- MATERIALIZED: else the test moves into the subquery, row by row.
	WITH stores AS MATERIALIZED (SELECT DISTINCT store FROM joined WHERE gone_at IS NULL)
	SELECT array_agg(store) INTO counted FROM stores WHERE NOT storectl.tallies_deferred(store);
	IF counted IS NULL THEN
		RETURN NULL; -- a page of a first pass: nothing to count yet
	END IF;
	INSERT INTO storectl.demand_tally AS d (store, product_id, variant_id, live, pending, sent, newest, oldest, title_id)
	SELECT store, product_id, variant_id, count(*), count(*) FILTER (WHERE status = 0), count(*) FILTER (WHERE status = 1),
		max(created_at), min(created_at), (array_agg(id ORDER BY created_at DESC NULLS LAST, id DESC))[1]
	FROM joined WHERE gone_at IS NULL AND store = ANY (counted) GROUP BY store, product_id, variant_id
	ON CONFLICT ON CONSTRAINT demand_tally_key DO UPDATE SET live = d.live + excluded.live,
		pending = d.pending + excluded.pending, sent = d.sent + excluded.sent,
		newest = CASE WHEN excluded.newest > d.newest OR d.newest IS NULL THEN excluded.newest ELSE d.newest END,
		oldest = CASE WHEN excluded.oldest < d.oldest OR d.oldest IS NULL THEN excluded.oldest ELSE d.oldest END,
		title_id = CASE WHEN d.title_id IS NULL OR excluded.newest > d.newest OR d.newest IS NULL AND excluded.newest IS NOT NULL
			OR excluded.newest IS NOT DISTINCT FROM d.newest AND excluded.title_id > d.title_id THEN excluded.title_id ELSE d.title_id END;

	INSERT INTO storectl.demand_sku AS d (store, product_id, variant_id, sku, live, newest)
	SELECT store, product_id, variant_id, sku, count(*), max(created_at)
	FROM joined WHERE gone_at IS NULL AND coalesce(sku, '') <> '' AND store = ANY (counted)
	GROUP BY store, product_id, variant_id, sku
	ON CONFLICT ON CONSTRAINT demand_sku_key DO UPDATE SET live = d.live + excluded.live,
		newest = CASE WHEN excluded.newest > d.newest OR d.newest IS NULL THEN excluded.newest ELSE d.newest END;

	RETURN NULL;
END $$;

CREATE TRIGGER submissions_joined AFTER INSERT ON storectl.submissions
	REFERENCING NEW TABLE AS joined FOR EACH STATEMENT EXECUTE FUNCTION storectl.submissions_joined();

-- The store's tallies counted afresh from its rows, the other stores' left
-- as they are: run once, in the transaction that ends a store's first
-- pass, with the plans PostgreSQL keeps (the writer's connection plans
-- each run anew, and the foreign key's check of each row inserted was
-- planned on its own).
CREATE FUNCTION storectl.count_tallies(s text) RETURNS void LANGUAGE sql SET plan_cache_mode = auto AS $$
DELETE FROM storectl.demand_tally WHERE store = s;
INSERT INTO storectl.demand_tally (store, product_id, variant_id, live, pending, sent, newest, oldest, title_id)
SELECT store, product_id, variant_id, count(*), count(*) FILTER (WHERE status = 0), count(*) FILTER (WHERE status = 1),
	max(created_at), min(created_at), (array_agg(id ORDER BY created_at DESC NULLS LAST, id DESC))[1]
FROM storectl.submissions WHERE store = s AND gone_at IS NULL GROUP BY store, product_id, variant_id;
DELETE FROM storectl.demand_sku WHERE store = s;
INSERT INTO storectl.demand_sku (store, product_id, variant_id, sku, live, newest)
SELECT store, product_id, variant_id, sku, count(*), max(created_at) FROM storectl.submissions
WHERE store = s AND gone_at IS NULL AND coalesce(sku, '') <> '' GROUP BY store, product_id, variant_id, sku;
$$;

-- The views the commands read (SQLite's, with the store first). A NULL
-- product or variant is a group of its own: the joins compare the ids and
-- whether they are NULL, equalities PostgreSQL can hash. They read the
-- tables with the reader's rights, so that row-level security limiting a
-- role to some stores holds through them too.
CREATE VIEW storectl.live_submissions WITH (security_invoker = true) AS SELECT * FROM storectl.submissions WHERE gone_at IS NULL;

CREATE VIEW storectl.demand_by_variant WITH (security_invoker = true) AS
SELECT d.store, d.product_id, t.product_title, d.variant_id, t.variant_title, k.sku, d.pending, d.sent, d.newest, d.oldest
FROM storectl.demand_tally d
LEFT JOIN (SELECT DISTINCT ON (store, product_id, variant_id) store, product_id, variant_id, sku FROM storectl.demand_sku
		ORDER BY store, product_id, variant_id, live DESC, newest DESC NULLS LAST) k
	ON k.store = d.store AND coalesce(k.product_id, 0) = coalesce(d.product_id, 0) AND (k.product_id IS NULL) = (d.product_id IS NULL)
	AND coalesce(k.variant_id, 0) = coalesce(d.variant_id, 0) AND (k.variant_id IS NULL) = (d.variant_id IS NULL)
LEFT JOIN storectl.submissions t ON t.store = d.store AND t.id = d.title_id;

CREATE VIEW storectl.demand_by_product WITH (security_invoker = true) AS
SELECT g.store, g.product_id, t.product_title, g.pending, g.sent, g.newest, g.oldest
FROM (SELECT store, product_id, sum(pending) AS pending, sum(sent) AS sent, max(newest) AS newest, min(oldest) AS oldest,
		(array_agg(title_id ORDER BY newest DESC NULLS LAST, title_id DESC))[1] AS title_id
	FROM storectl.demand_tally GROUP BY store, product_id) g
LEFT JOIN storectl.submissions t ON t.store = g.store AND t.id = g.title_id;

-- A store's connection reads the mirror's tables by their plain names as
-- its own rows: search_path storectl_store, storectl, and the
-- store in the setting storectl.store, given when it connects. Each view
-- is the store's rows of the shared table: an INSERT through it writes
-- them (its store column defaults to the store; WITH CHECK OPTION refuses
-- another's). They read with the caller's rights (security_invoker), so
-- row-level security holds through them. A migration that adds a column
-- to one of these tables makes its view again.
CREATE SCHEMA storectl_store;
CREATE VIEW storectl_store.store WITH (security_invoker = true) AS SELECT * FROM storectl.store WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.store ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.submissions WITH (security_invoker = true) AS SELECT * FROM storectl.submissions WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.submissions ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.offers WITH (security_invoker = true) AS SELECT * FROM storectl.offers WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.offers ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.offer_products WITH (security_invoker = true) AS SELECT * FROM storectl.offer_products WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.offer_products ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.priority_rows WITH (security_invoker = true) AS SELECT * FROM storectl.priority_rows WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.priority_rows ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.rules WITH (security_invoker = true) AS SELECT * FROM storectl.rules WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.rules ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.form_fields WITH (security_invoker = true) AS SELECT * FROM storectl.form_fields WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.form_fields ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.sync_journal WITH (security_invoker = true) AS SELECT * FROM storectl.sync_journal WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.sync_journal ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.odd_rows WITH (security_invoker = true) AS SELECT * FROM storectl.odd_rows WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.odd_rows ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.bulk_deferred WITH (security_invoker = true) AS SELECT * FROM storectl.bulk_deferred WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.bulk_deferred ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.demand_tally WITH (security_invoker = true) AS SELECT * FROM storectl.demand_tally WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.demand_tally ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.demand_sku WITH (security_invoker = true) AS SELECT * FROM storectl.demand_sku WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.demand_sku ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
-- The views bis demand and bis find read with SELECT *: SQLite's columns
-- (no store where SQLite has none).
CREATE VIEW storectl_store.live_submissions WITH (security_invoker = true) AS SELECT * FROM storectl.live_submissions WHERE store = current_setting('storectl.store', true);
CREATE VIEW storectl_store.demand_by_variant WITH (security_invoker = true) AS SELECT product_id, product_title, variant_id, variant_title, sku, pending, sent, newest, oldest FROM storectl.demand_by_variant WHERE store = current_setting('storectl.store', true);
CREATE VIEW storectl_store.demand_by_product WITH (security_invoker = true) AS SELECT product_id, product_title, pending, sent, newest, oldest FROM storectl.demand_by_product WHERE store = current_setting('storectl.store', true);



-- A store's first full pass into a table no store has rows in yet builds
-- the table's secondary indexes once, when it ends, as SQLite's does:
-- keeping nine indexes of submissions up to date row by row was over a
-- third of the server's work of a first sync. The table is shared, and the
-- writer is not its owner, so two functions run with the owner's rights
-- (SECURITY DEFINER) for a caller who may write the table:
-- defer_indexes(tbl) drops the indexes that are neither unique nor the
-- key when the table is empty for every store (under a lock that waits a
-- second at most for readers), keeping their definitions where only the
-- owner writes (storectl_private, a schema no role is granted: the owner's
-- function would otherwise run what a writer put in bulk_deferred);
-- restore_indexes(tbl) makes again every index any store deferred.
CREATE SCHEMA storectl_private;
CREATE TABLE storectl_private.deferred_indexes (
	tbl  text NOT NULL,
	name text NOT NULL,
	def  text NOT NULL,
	PRIMARY KEY (tbl, name)
);

CREATE FUNCTION storectl.defer_indexes(tbl text) RETURNS void LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	rel regclass := to_regclass('storectl.' || quote_ident(tbl));
	s text := current_setting('storectl.store', true);
	filled boolean;
	ix record;
BEGIN
	IF rel IS NULL OR s IS NULL OR NOT has_table_privilege(session_user, rel, 'INSERT') THEN
		RETURN;
	END IF;
	PERFORM set_config('lock_timeout', '1s', true);
	BEGIN
		EXECUTE format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', rel);
	EXCEPTION WHEN lock_not_available THEN
		RETURN;
	END;
	EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s)', rel) INTO filled;
	IF filled THEN
		RETURN;
	END IF;
	FOR ix IN SELECT c.relname, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
		WHERE i.indrelid = rel AND NOT i.indisunique AND NOT i.indisprimary ORDER BY c.relname
	LOOP
		INSERT INTO storectl_private.deferred_indexes (tbl, name, def) VALUES (tbl, ix.relname, ix.def)
			ON CONFLICT DO NOTHING;
		INSERT INTO storectl.bulk_deferred (store, tbl, kind, name, sql) VALUES (s, tbl, 'index', ix.relname, ix.def)
			ON CONFLICT DO NOTHING;
		EXECUTE format('DROP INDEX storectl.%I', ix.relname);
	END LOOP;
END $$;

CREATE FUNCTION storectl.restore_indexes(tbl text) RETURNS void LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	rel regclass := to_regclass('storectl.' || quote_ident(tbl));
	def text;
BEGIN
	IF rel IS NULL OR NOT has_table_privilege(session_user, rel, 'INSERT') THEN
		RETURN;
	END IF;
	FOR def IN SELECT d.def FROM storectl_private.deferred_indexes d WHERE d.tbl = restore_indexes.tbl ORDER BY d.name
	LOOP
		EXECUTE regexp_replace(def, '^CREATE INDEX ', 'CREATE INDEX IF NOT EXISTS ');
	END LOOP;
	DELETE FROM storectl_private.deferred_indexes d WHERE d.tbl = restore_indexes.tbl;
END $$;
`
