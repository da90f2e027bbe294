package mirror

// pgVersion8 is SQLite's version 8 (issue 23) on PostgreSQL: the same
// columns (phone_reversed, seen_by), the same tallies (demand_tally,
// demand_sku) kept exact by triggers, and the same views (live_submissions,
// demand_by_variant, demand_by_product), each with the store column
// first. What differs, and why:
//   - submissions is not rebuilt in arrival order: a heap table appends
//     whatever the ids, so id stays the primary key with the store;
//   - bulk_deferred exists but no index or trigger is dropped: the tables
//     are every store's, and dropping them for one store's first pass
//     would leave another store's writes untallied (bulk.go; version 11
//     defers only the store's tallies);
//   - phone_reversed compares byte by byte (COLLATE "C"), as SQLite does:
//     bis find's range (digits up to ':') must not depend on the
//     database's locale;
//   - a tally's group is found through its unique key, which counts a NULL
//     product or variant as one value (NULLS NOT DISTINCT), and the views
//     join on equalities PostgreSQL can hash, since it cannot hash SQLite's
//     IS between two NULLs.
const pgVersion8 = `
-- SQLite's json_each as the mirror's SQL uses it (idList, an export's
-- rows): over a JSON array of integer ids (or null), each one's index
-- (key, from 0) and id (value), as bigint so that id IN (…) seeks the key.
CREATE FUNCTION storectl.json_each(ids text) RETURNS TABLE (key bigint, value bigint) LANGUAGE sql IMMUTABLE ROWS 15 AS
	'SELECT o - 1, e::bigint FROM jsonb_array_elements_text(ids::jsonb) WITH ORDINALITY AS t(e, o)';

ALTER TABLE storectl.submissions ADD COLUMN phone_reversed text COLLATE "C", ADD COLUMN seen_by bigint;
UPDATE storectl.submissions SET phone_reversed = reverse(phone_digits) WHERE phone_digits IS NOT NULL;
ALTER TABLE storectl.offers ADD COLUMN seen_by bigint;
ALTER TABLE storectl.priority_rows ADD COLUMN seen_by bigint;
ALTER TABLE storectl.rules ADD COLUMN seen_by bigint;
ALTER TABLE storectl.odd_rows ADD COLUMN seen_by bigint;

DROP INDEX storectl.submissions_email, storectl.submissions_phone, storectl.submissions_product, storectl.submissions_variant;
CREATE INDEX submissions_email   ON storectl.submissions (store, customer_email COLLATE storectl.nocase, id);
CREATE INDEX submissions_phone   ON storectl.submissions (store, phone_reversed);
CREATE INDEX submissions_variant ON storectl.submissions (store, variant_id, created_at);
CREATE INDEX submissions_product ON storectl.submissions (store, product_id, variant_id, created_at, id) WHERE gone_at IS NULL;
CREATE INDEX export_rows_id ON storectl.export_rows (pass_id, id);

CREATE TABLE storectl.bulk_deferred (
	store text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	tbl   text NOT NULL,
	kind  text NOT NULL,
	name  text NOT NULL,
	sql   text NOT NULL,
	PRIMARY KEY (store, tbl, name)
);

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
INSERT INTO storectl.demand_tally (store, product_id, variant_id, live, pending, sent, newest, oldest, title_id)
SELECT store, product_id, variant_id, count(*), count(*) FILTER (WHERE status = 0), count(*) FILTER (WHERE status = 1),
	max(created_at), min(created_at), (array_agg(id ORDER BY created_at DESC NULLS LAST, id DESC))[1]
FROM storectl.submissions WHERE gone_at IS NULL GROUP BY store, product_id, variant_id;

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
INSERT INTO storectl.demand_sku (store, product_id, variant_id, sku, live, newest)
SELECT store, product_id, variant_id, sku, count(*), max(created_at) FROM storectl.submissions
WHERE gone_at IS NULL AND coalesce(sku, '') <> '' GROUP BY store, product_id, variant_id, sku;

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

-- One trigger function for the three events: the old row leaves what it
-- counted in, the new row joins (an update does both when what the tally
-- or the SKU count reads changed).
CREATE FUNCTION storectl.submissions_demand() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	tally_moved boolean := TG_OP <> 'UPDATE' OR (OLD.product_id, OLD.variant_id, OLD.status, OLD.created_at, OLD.gone_at)
		IS DISTINCT FROM (NEW.product_id, NEW.variant_id, NEW.status, NEW.created_at, NEW.gone_at);
	sku_moved boolean := TG_OP <> 'UPDATE' OR (OLD.product_id, OLD.variant_id, OLD.sku, OLD.created_at, OLD.gone_at)
		IS DISTINCT FROM (NEW.product_id, NEW.variant_id, NEW.sku, NEW.created_at, NEW.gone_at);
BEGIN
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

CREATE TRIGGER submissions_demand_insert AFTER INSERT ON storectl.submissions
	FOR EACH ROW WHEN (NEW.gone_at IS NULL) EXECUTE FUNCTION storectl.submissions_demand();
CREATE TRIGGER submissions_demand_delete AFTER DELETE ON storectl.submissions
	FOR EACH ROW WHEN (OLD.gone_at IS NULL) EXECUTE FUNCTION storectl.submissions_demand();
CREATE TRIGGER submissions_demand_update AFTER UPDATE OF product_id, variant_id, status, sku, created_at, gone_at ON storectl.submissions
	FOR EACH ROW WHEN ((OLD.product_id, OLD.variant_id, OLD.status, OLD.sku, OLD.created_at, OLD.gone_at)
		IS DISTINCT FROM (NEW.product_id, NEW.variant_id, NEW.status, NEW.sku, NEW.created_at, NEW.gone_at))
	EXECUTE FUNCTION storectl.submissions_demand();

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
`
