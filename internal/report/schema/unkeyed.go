package schema

// postgresUnkeyed is the part's third PostgreSQL migration. The tallies'
// foreign keys to storectl.stores served only to delete a store's counts
// with it, yet checked every row a count wrote: at the end of a store's
// first pass, a row for nearly every submission. A trigger on
// storectl.stores deletes them instead (with the owner's rights, as the
// cascade did), and TRUNCATE of it empties them. A count is still never
// written for a store being deleted: every count follows a write that
// holds the store (a submission's foreign key, for a page; demand_tally's,
// whose counts the end of a first pass writes first, in its transaction),
// so the store's delete waits for it and then finds the counts. The
// counts are also written in their unique key's order, so that each lands
// at the index's end rather than anywhere in it.
const postgresUnkeyed = `
ALTER TABLE storectl.report_tally DROP CONSTRAINT report_tally_store_fkey;
ALTER TABLE storectl.report_total DROP CONSTRAINT report_total_store_fkey;
ALTER TABLE storectl.report_quarters DROP CONSTRAINT report_quarters_store_fkey;
ALTER TABLE storectl.report_days DROP CONSTRAINT report_days_store_fkey;

CREATE FUNCTION storectl.forget_report() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		DELETE FROM storectl.report_tally;
		DELETE FROM storectl.report_total;
		DELETE FROM storectl.report_quarters;
		DELETE FROM storectl.report_days;
	ELSE
		DELETE FROM storectl.report_tally WHERE store = OLD.store;
		DELETE FROM storectl.report_total WHERE store = OLD.store;
		DELETE FROM storectl.report_quarters WHERE store = OLD.store;
		DELETE FROM storectl.report_days WHERE store = OLD.store;
	END IF;
	RETURN NULL;
END $$;
CREATE TRIGGER forget_report AFTER DELETE ON storectl.stores
	FOR EACH ROW EXECUTE FUNCTION storectl.forget_report();
CREATE TRIGGER forget_report_all AFTER TRUNCATE ON storectl.stores
	FOR EACH STATEMENT EXECUTE FUNCTION storectl.forget_report();

CREATE OR REPLACE FUNCTION storectl.count_report_tally(s text) RETURNS void LANGUAGE sql SET plan_cache_mode = auto AS $$
DELETE FROM storectl.report_tally WHERE store = s;
INSERT INTO storectl.report_tally (store, product_id, variant_id, sku, locale, status, quarter, n, detailed, opened, clicked, unsubscribed, oldest)
SELECT store, product_id, variant_id, sku, coalesce(CASE WHEN detail_fetched_at IS NOT NULL THEN locale END, ''), status,
	storectl.report_quarter(created_at), count(*),
	count(*) FILTER (WHERE detail_fetched_at IS NOT NULL),
	count(*) FILTER (WHERE detail_fetched_at IS NOT NULL AND storectl.report_engaged(opened)),
	count(*) FILTER (WHERE detail_fetched_at IS NOT NULL AND storectl.report_engaged(clicked)),
	count(*) FILTER (WHERE detail_fetched_at IS NOT NULL AND unsubscribe = 1), min(created_at)
FROM storectl.submissions WHERE store = s AND gone_at IS NULL
GROUP BY 1, 2, 3, 4, 6, 5, 7 ORDER BY 1, 2, 3, 4, 6, 5, 7;
$$;

CREATE OR REPLACE FUNCTION storectl.count_report_totals(s text) RETURNS void LANGUAGE sql SET plan_cache_mode = auto AS $$
DELETE FROM storectl.report_total WHERE store = s;
INSERT INTO storectl.report_total (store, product_id, variant_id, sku, locale, status, n, detailed, opened, clicked, unsubscribed, oldest)
SELECT store, product_id, variant_id, sku, locale, status, sum(n), sum(detailed), sum(opened), sum(clicked), sum(unsubscribed), min(oldest)
FROM storectl.report_tally WHERE store = s AND quarter >= '' AND quarter < '9999' GROUP BY 1, 2, 3, 4, 6, 5 ORDER BY 1, 2, 3, 4, 6, 5;
DELETE FROM storectl.report_quarters WHERE store = s;
INSERT INTO storectl.report_quarters (store, quarter, status, n)
SELECT store, quarter, status, sum(n) FROM storectl.report_tally WHERE store = s GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
DELETE FROM storectl.report_days WHERE store = s;
INSERT INTO storectl.report_days (store, day, product_id, variant_id, n)
SELECT store, substr(quarter, 1, 10), product_id, variant_id, sum(n) FROM storectl.report_tally WHERE store = s GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
$$;
`
