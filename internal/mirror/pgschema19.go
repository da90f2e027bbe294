package mirror

// pgVersion19 makes a store's first pass cheaper on the server in two
// places a profile of a first sync of 100,000 rows (pg_stat_statements,
// every nested statement) named:
//   - storectl.count_tallies, run once in the transaction that ends the
//     pass, runs with the plans PostgreSQL keeps: the writer's connection
//     plans each run anew (force_custom_plan, pgconn.go), and so the
//     foreign key's check of each of the ~100,000 report_tally rows it
//     inserts was planned on its own, 0.7–1.2 s of the ~3 s it took;
//   - the statement trigger of an INSERT (pgVersion11) asks whether a
//     store's tallies are deferred once per store among the statement's
//     rows, not once per row (and up to three times more per row to count
//     them): a page of a first pass asked 15 times for one store, 0.6 s
//     of a first sync.
//
// What the trigger counts is unchanged: TestPostgresFirstPassDefersOnlyItsStoresTallies
// compares another store's tallies with its rows after each kind of write.
const pgVersion19 = `
ALTER FUNCTION storectl.count_tallies(text) SET plan_cache_mode = auto;

CREATE OR REPLACE FUNCTION storectl.submissions_joined() RETURNS trigger LANGUAGE plpgsql AS $$
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

	INSERT INTO storectl.report_tally AS t (store, product_id, variant_id, sku, locale, status, quarter, n, detailed, opened, clicked,
		unsubscribed, oldest)
	SELECT s.store, s.product_id, s.variant_id, s.sku, coalesce(CASE WHEN s.detail_fetched_at IS NOT NULL THEN s.locale END, ''),
		s.status, storectl.report_quarter(s.created_at), count(*),
		count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL),
		count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL AND storectl.report_engaged(s.opened)),
		count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL AND storectl.report_engaged(s.clicked)),
		count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL AND s.unsubscribe = 1), min(s.created_at)
	FROM joined s WHERE s.gone_at IS NULL AND s.store = ANY (counted)
	GROUP BY 1, 2, 3, 4, 5, 6, 7
	ON CONFLICT ON CONSTRAINT report_tally_key DO UPDATE SET n = t.n + excluded.n, detailed = t.detailed + excluded.detailed,
		opened = t.opened + excluded.opened, clicked = t.clicked + excluded.clicked, unsubscribed = t.unsubscribed + excluded.unsubscribed,
		oldest = CASE WHEN excluded.oldest < t.oldest OR t.oldest IS NULL THEN excluded.oldest ELSE t.oldest END;
	RETURN NULL;
END $$;
`
