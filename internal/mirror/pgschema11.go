package mirror

// pgVersion11 gives a store's connections its views of the tables in a
// schema of their own (storectl_store), made once, instead of temporary
// views made by each connection (some 20 statements, tens of milliseconds
// of an answer's whole run), and makes a PostgreSQL mirror's first sync of
// a store cheap in tallies, as SQLite's deferral of a first pass's indexes and triggers
// does (bulk.go), without touching another store's:
//   - a store's first full pass into its empty table marks its tallies
//     deferred (a 'recount' row in bulk_deferred, the store's own): the
//     triggers then leave that store's rows out, and the transaction that
//     ends the pass counts its tallies once from its rows
//     (storectl.count_tallies) and drops the mark. Until then the answers
//     refuse the store as never synced (NeedsSync), as on SQLite; another
//     store's rows are tallied as ever, row by row or statement by
//     statement;
//   - rows an INSERT brings are counted once per statement (a trigger FOR
//     EACH STATEMENT reading the statement's new rows) instead of once per
//     row: a page's rows are one statement, whose three upserts per row
//     become three per page. What a group ends with is what the row
//     triggers of versions 8 and 9 gave it: counts summed, newest the latest
//     created_at, oldest the earliest, the title row the newest's (the
//     highest id among equals). Updates and deletes keep their row
//     triggers (a row leaving a group may need the group read again).
const pgVersion11 = `
-- A store's connection reads the mirror's tables by their plain names as
-- its own rows (pgconn.go): search_path storectl_store, storectl, and the
-- store in the setting storectl.store, given when it connects. Each view
-- is the store's rows of the shared table: an INSERT through it writes
-- them (its store column defaults to the store; WITH CHECK OPTION refuses
-- another's). They read with the caller's rights (security_invoker), so
-- row-level security holds through them. A migration that adds a column
-- to one of these tables makes its view again (TestPostgresStoreViews).
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
CREATE VIEW storectl_store.watch_lists WITH (security_invoker = true) AS SELECT * FROM storectl.watch_lists WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.watch_lists ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.outbox WITH (security_invoker = true) AS SELECT * FROM storectl.outbox WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.outbox ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.watch_alerts WITH (security_invoker = true) AS SELECT * FROM storectl.watch_alerts WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.watch_alerts ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.bulk_deferred WITH (security_invoker = true) AS SELECT * FROM storectl.bulk_deferred WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.bulk_deferred ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.demand_tally WITH (security_invoker = true) AS SELECT * FROM storectl.demand_tally WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.demand_tally ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.demand_sku WITH (security_invoker = true) AS SELECT * FROM storectl.demand_sku WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.demand_sku ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.report_tally WITH (security_invoker = true) AS SELECT * FROM storectl.report_tally WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.report_tally ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
-- The views bis demand and bis find read with SELECT *: SQLite's columns
-- (no store where SQLite has none).
CREATE VIEW storectl_store.live_submissions WITH (security_invoker = true) AS SELECT * FROM storectl.live_submissions WHERE store = current_setting('storectl.store', true);
CREATE VIEW storectl_store.demand_by_variant WITH (security_invoker = true) AS SELECT product_id, product_title, variant_id, variant_title, sku, pending, sent, newest, oldest FROM storectl.demand_by_variant WHERE store = current_setting('storectl.store', true);
CREATE VIEW storectl_store.demand_by_product WITH (security_invoker = true) AS SELECT product_id, product_title, pending, sent, newest, oldest FROM storectl.demand_by_product WHERE store = current_setting('storectl.store', true);

-- Whether the store's tallies wait for its first pass to end.
CREATE FUNCTION storectl.tallies_deferred(s text) RETURNS boolean LANGUAGE sql STABLE AS
	$$SELECT EXISTS (SELECT 1 FROM storectl.bulk_deferred b WHERE b.store = s AND b.tbl = 'submissions' AND b.kind = 'recount')$$;

-- The store's three tallies counted afresh from its rows (as versions 8
-- and 9 filled them), the other stores' left as they are.
CREATE FUNCTION storectl.count_tallies(s text) RETURNS void LANGUAGE sql AS $$
DELETE FROM storectl.demand_tally WHERE store = s;
INSERT INTO storectl.demand_tally (store, product_id, variant_id, live, pending, sent, newest, oldest, title_id)
SELECT store, product_id, variant_id, count(*), count(*) FILTER (WHERE status = 0), count(*) FILTER (WHERE status = 1),
	max(created_at), min(created_at), (array_agg(id ORDER BY created_at DESC NULLS LAST, id DESC))[1]
FROM storectl.submissions WHERE store = s AND gone_at IS NULL GROUP BY store, product_id, variant_id;
DELETE FROM storectl.demand_sku WHERE store = s;
INSERT INTO storectl.demand_sku (store, product_id, variant_id, sku, live, newest)
SELECT store, product_id, variant_id, sku, count(*), max(created_at) FROM storectl.submissions
WHERE store = s AND gone_at IS NULL AND coalesce(sku, '') <> '' GROUP BY store, product_id, variant_id, sku;
DELETE FROM storectl.report_tally WHERE store = s;
INSERT INTO storectl.report_tally (store, product_id, variant_id, sku, locale, status, quarter, n, detailed, opened, clicked, unsubscribed, oldest)
SELECT store, product_id, variant_id, sku, coalesce(CASE WHEN detail_fetched_at IS NOT NULL THEN locale END, ''), status,
	storectl.report_quarter(created_at), count(*),
	count(*) FILTER (WHERE detail_fetched_at IS NOT NULL),
	count(*) FILTER (WHERE detail_fetched_at IS NOT NULL AND storectl.report_engaged(opened)),
	count(*) FILTER (WHERE detail_fetched_at IS NOT NULL AND storectl.report_engaged(clicked)),
	count(*) FILTER (WHERE detail_fetched_at IS NOT NULL AND unsubscribe = 1), min(created_at)
FROM storectl.submissions WHERE store = s AND gone_at IS NULL
GROUP BY 1, 2, 3, 4, 5, 6, 7;
$$;

DROP TRIGGER submissions_demand_insert ON storectl.submissions;
DROP TRIGGER submissions_report_insert ON storectl.submissions;

CREATE FUNCTION storectl.submissions_joined() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NOT EXISTS (SELECT 1 FROM joined WHERE gone_at IS NULL AND NOT storectl.tallies_deferred(store)) THEN
		RETURN NULL; -- a page of a first pass: nothing to count yet
	END IF;
	INSERT INTO storectl.demand_tally AS d (store, product_id, variant_id, live, pending, sent, newest, oldest, title_id)
	SELECT store, product_id, variant_id, count(*), count(*) FILTER (WHERE status = 0), count(*) FILTER (WHERE status = 1),
		max(created_at), min(created_at), (array_agg(id ORDER BY created_at DESC NULLS LAST, id DESC))[1]
	FROM joined WHERE gone_at IS NULL AND NOT storectl.tallies_deferred(store) GROUP BY store, product_id, variant_id
	ON CONFLICT ON CONSTRAINT demand_tally_key DO UPDATE SET live = d.live + excluded.live,
		pending = d.pending + excluded.pending, sent = d.sent + excluded.sent,
		newest = CASE WHEN excluded.newest > d.newest OR d.newest IS NULL THEN excluded.newest ELSE d.newest END,
		oldest = CASE WHEN excluded.oldest < d.oldest OR d.oldest IS NULL THEN excluded.oldest ELSE d.oldest END,
		title_id = CASE WHEN d.title_id IS NULL OR excluded.newest > d.newest OR d.newest IS NULL AND excluded.newest IS NOT NULL
			OR excluded.newest IS NOT DISTINCT FROM d.newest AND excluded.title_id > d.title_id THEN excluded.title_id ELSE d.title_id END;

	INSERT INTO storectl.demand_sku AS d (store, product_id, variant_id, sku, live, newest)
	SELECT store, product_id, variant_id, sku, count(*), max(created_at)
	FROM joined WHERE gone_at IS NULL AND coalesce(sku, '') <> '' AND NOT storectl.tallies_deferred(store)
	GROUP BY store, product_id, variant_id, sku
	ON CONFLICT ON CONSTRAINT demand_sku_key DO UPDATE SET live = d.live + excluded.live,
		newest = CASE WHEN excluded.newest > d.newest OR d.newest IS NULL THEN excluded.newest ELSE d.newest END;

	INSERT INTO storectl.report_tally AS t (store, product_id, variant_id, sku, locale, status, quarter, n, detailed, opened, clicked,
		unsubscribed, oldest)
	SELECT s.store, s.product_id, s.variant_id, s.sku, coalesce(CASE WHEN s.detail_fetched_at IS NOT NULL THEN s.locale END, ''),
		s.status, storectl.report_quarter(s.created_at), count(*),
		count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL),
		count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL AND storectl.report_engaged(s.opened)),
		count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL AND storectl.report_engaged(s.clicked)),
		count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL AND s.unsubscribe = 1), min(s.created_at)
	FROM joined s WHERE s.gone_at IS NULL AND NOT storectl.tallies_deferred(s.store)
	GROUP BY 1, 2, 3, 4, 5, 6, 7
	ON CONFLICT ON CONSTRAINT report_tally_key DO UPDATE SET n = t.n + excluded.n, detailed = t.detailed + excluded.detailed,
		opened = t.opened + excluded.opened, clicked = t.clicked + excluded.clicked, unsubscribed = t.unsubscribed + excluded.unsubscribed,
		oldest = CASE WHEN excluded.oldest < t.oldest OR t.oldest IS NULL THEN excluded.oldest ELSE t.oldest END;
	RETURN NULL;
END $$;

CREATE TRIGGER submissions_joined AFTER INSERT ON storectl.submissions
	REFERENCING NEW TABLE AS joined FOR EACH STATEMENT EXECUTE FUNCTION storectl.submissions_joined();

-- The row triggers of updates and deletes (versions 8 and 9), leaving out
-- a store whose tallies are deferred.
CREATE OR REPLACE FUNCTION storectl.submissions_demand() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE OR REPLACE FUNCTION storectl.submissions_report() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF storectl.tallies_deferred(coalesce(NEW.store, OLD.store)) THEN
		RETURN NULL;
	END IF;
	IF TG_OP <> 'INSERT' AND OLD.gone_at IS NULL THEN
		PERFORM storectl.report_count(OLD, -1);
	END IF;
	IF TG_OP <> 'DELETE' AND NEW.gone_at IS NULL THEN
		PERFORM storectl.report_count(NEW, 1);
	END IF;
	RETURN NULL;
END $$;
`
