package schema

// The part's month tally (SQLite's third migration, PostgreSQL's fourth):
// report_tally summed per month of created_at, with every dimension it
// keeps. A report with --since or --until summed report_tally over its
// range, about one entry per row; it now sums the range's whole months
// here, and report_tally (through an index on quarter) and the rows only
// for the parts of months its ends cut, so what it reads grows with the
// months and products a range covers, not with its rows.
//
// month is created_at's first 7 characters ('2026-11') for a created_at of
// the API's form (the quarter's), and the whole created_at otherwise (its
// own month, as it is its own quarter). Either way a created_at lies in a
// range of months [m0, m1) (7 characters each, or '' and '9999') exactly
// when its month does, and a quarter when its month does: the report
// splits a range by string bounds alone (report's rangeSource).

const fillMonthsSQLite = `INSERT INTO report_months (product_id, variant_id, sku, locale, status, month, n, detailed, opened, clicked, unsubscribed, oldest)
SELECT product_id, variant_id, sku, locale, status, ` + sqliteQuarterMonth + `, sum(n), sum(detailed), sum(opened), sum(clicked), sum(unsubscribed), min(oldest)
FROM report_tally WHERE quarter IS NOT NULL
GROUP BY product_id, variant_id, sku, locale, status, ` + sqliteQuarterMonth

// sqliteQuarterMonth is a report_tally quarter's month (a quarter not of
// the API's form is its created_at).
const sqliteQuarterMonth = `CASE WHEN quarter GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*' THEN substr(quarter, 1, 7) ELSE quarter END`

const sqliteMonths = `
CREATE TABLE report_months (
	product_id   INTEGER,
	variant_id   INTEGER,
	sku          TEXT,
	locale       TEXT NOT NULL,
	status       INTEGER,
	month        TEXT NOT NULL,
	n            INTEGER NOT NULL DEFAULT 0,
	detailed     INTEGER NOT NULL DEFAULT 0,
	opened       INTEGER NOT NULL DEFAULT 0,
	clicked      INTEGER NOT NULL DEFAULT 0,
	unsubscribed INTEGER NOT NULL DEFAULT 0,
	oldest       TEXT
);
CREATE INDEX report_months_key ON report_months (product_id, variant_id, sku, status, locale, month);
CREATE INDEX report_tally_quarter ON report_tally (quarter);
` + fillMonthsSQLite + `;

CREATE TRIGGER submissions_report_months_insert AFTER INSERT ON submissions
	WHEN new.gone_at IS NULL AND new.created_at IS NOT NULL
BEGIN
	INSERT INTO report_months (product_id, variant_id, sku, locale, status, month)
	SELECT new.product_id, new.variant_id, new.sku, coalesce(CASE WHEN new.detail_fetched_at IS NOT NULL THEN new.locale END, ''), new.status, CASE WHEN new.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*' THEN substr(new.created_at, 1, 7) ELSE new.created_at END
	WHERE NOT EXISTS (SELECT 1 FROM report_months WHERE product_id IS new.product_id AND variant_id IS new.variant_id AND sku IS new.sku AND status IS new.status
		AND locale = coalesce(CASE WHEN new.detail_fetched_at IS NOT NULL THEN new.locale END, '') AND month = CASE WHEN new.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*' THEN substr(new.created_at, 1, 7) ELSE new.created_at END);
	UPDATE report_months SET n = n + 1, detailed = detailed + (new.detail_fetched_at IS NOT NULL), opened = opened + (new.detail_fetched_at IS NOT NULL AND new.opened IS NOT NULL AND new.opened NOT IN (0, '0', '')), clicked = clicked + (new.detail_fetched_at IS NOT NULL AND new.clicked IS NOT NULL AND new.clicked NOT IN (0, '0', '')),
		unsubscribed = unsubscribed + (new.detail_fetched_at IS NOT NULL AND new.unsubscribe IS 1),
		oldest = CASE WHEN new.created_at < oldest OR oldest IS NULL THEN new.created_at ELSE oldest END
	WHERE product_id IS new.product_id AND variant_id IS new.variant_id AND sku IS new.sku AND status IS new.status
		AND locale = coalesce(CASE WHEN new.detail_fetched_at IS NOT NULL THEN new.locale END, '') AND month = CASE WHEN new.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*' THEN substr(new.created_at, 1, 7) ELSE new.created_at END;
END;

CREATE TRIGGER submissions_report_months_delete AFTER DELETE ON submissions
	WHEN old.gone_at IS NULL AND old.created_at IS NOT NULL
BEGIN
	UPDATE report_months SET n = n - 1, detailed = detailed - (old.detail_fetched_at IS NOT NULL), opened = opened - (old.detail_fetched_at IS NOT NULL AND old.opened IS NOT NULL AND old.opened NOT IN (0, '0', '')), clicked = clicked - (old.detail_fetched_at IS NOT NULL AND old.clicked IS NOT NULL AND old.clicked NOT IN (0, '0', '')),
		unsubscribed = unsubscribed - (old.detail_fetched_at IS NOT NULL AND old.unsubscribe IS 1)
	WHERE product_id IS old.product_id AND variant_id IS old.variant_id AND sku IS old.sku AND status IS old.status
		AND locale = coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '') AND month = CASE WHEN old.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*' THEN substr(old.created_at, 1, 7) ELSE old.created_at END;
	DELETE FROM report_months WHERE product_id IS old.product_id AND variant_id IS old.variant_id AND sku IS old.sku AND status IS old.status
		AND locale = coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '') AND month = CASE WHEN old.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*' THEN substr(old.created_at, 1, 7) ELSE old.created_at END AND n <= 0;
	UPDATE report_months SET oldest = (SELECT min(s.created_at) FROM submissions s WHERE s.gone_at IS NULL
			AND s.product_id IS old.product_id AND s.variant_id IS old.variant_id AND s.sku IS old.sku AND s.status IS old.status
			AND coalesce(CASE WHEN s.detail_fetched_at IS NOT NULL THEN s.locale END, '') = coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '')
			AND CASE WHEN s.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*' THEN substr(s.created_at, 1, 7) ELSE s.created_at END = CASE WHEN old.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*' THEN substr(old.created_at, 1, 7) ELSE old.created_at END)
	WHERE product_id IS old.product_id AND variant_id IS old.variant_id AND sku IS old.sku AND status IS old.status
		AND locale = coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '') AND month = CASE WHEN old.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*' THEN substr(old.created_at, 1, 7) ELSE old.created_at END AND old.created_at IS oldest;
END;

CREATE TRIGGER submissions_report_months_update AFTER UPDATE OF product_id, variant_id, sku, status, created_at, gone_at, detail_fetched_at, locale, opened, clicked, unsubscribe ON submissions
	WHEN old.product_id IS NOT new.product_id OR old.variant_id IS NOT new.variant_id OR old.sku IS NOT new.sku OR old.status IS NOT new.status OR old.created_at IS NOT new.created_at OR old.gone_at IS NOT new.gone_at OR old.detail_fetched_at IS NOT new.detail_fetched_at OR old.locale IS NOT new.locale OR old.opened IS NOT new.opened OR old.clicked IS NOT new.clicked OR old.unsubscribe IS NOT new.unsubscribe
BEGIN
	UPDATE report_months SET n = n - 1, detailed = detailed - (old.detail_fetched_at IS NOT NULL), opened = opened - (old.detail_fetched_at IS NOT NULL AND old.opened IS NOT NULL AND old.opened NOT IN (0, '0', '')), clicked = clicked - (old.detail_fetched_at IS NOT NULL AND old.clicked IS NOT NULL AND old.clicked NOT IN (0, '0', '')),
		unsubscribed = unsubscribed - (old.detail_fetched_at IS NOT NULL AND old.unsubscribe IS 1)
	WHERE old.gone_at IS NULL AND old.created_at IS NOT NULL
		AND product_id IS old.product_id AND variant_id IS old.variant_id AND sku IS old.sku AND status IS old.status
		AND locale = coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '') AND month = CASE WHEN old.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*' THEN substr(old.created_at, 1, 7) ELSE old.created_at END;
	DELETE FROM report_months WHERE old.gone_at IS NULL AND old.created_at IS NOT NULL
		AND product_id IS old.product_id AND variant_id IS old.variant_id AND sku IS old.sku AND status IS old.status
		AND locale = coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '') AND month = CASE WHEN old.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*' THEN substr(old.created_at, 1, 7) ELSE old.created_at END AND n <= 0;
	UPDATE report_months SET oldest = (SELECT min(s.created_at) FROM submissions s WHERE s.gone_at IS NULL
			AND s.product_id IS old.product_id AND s.variant_id IS old.variant_id AND s.sku IS old.sku AND s.status IS old.status
			AND coalesce(CASE WHEN s.detail_fetched_at IS NOT NULL THEN s.locale END, '') = coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '')
			AND CASE WHEN s.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*' THEN substr(s.created_at, 1, 7) ELSE s.created_at END = CASE WHEN old.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*' THEN substr(old.created_at, 1, 7) ELSE old.created_at END)
	WHERE old.gone_at IS NULL AND old.created_at IS NOT NULL
		AND product_id IS old.product_id AND variant_id IS old.variant_id AND sku IS old.sku AND status IS old.status
		AND locale = coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '') AND month = CASE WHEN old.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*' THEN substr(old.created_at, 1, 7) ELSE old.created_at END AND old.created_at IS oldest;
	INSERT INTO report_months (product_id, variant_id, sku, locale, status, month)
	SELECT new.product_id, new.variant_id, new.sku, coalesce(CASE WHEN new.detail_fetched_at IS NOT NULL THEN new.locale END, ''), new.status, CASE WHEN new.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*' THEN substr(new.created_at, 1, 7) ELSE new.created_at END
	WHERE new.gone_at IS NULL AND new.created_at IS NOT NULL
		AND NOT EXISTS (SELECT 1 FROM report_months WHERE product_id IS new.product_id AND variant_id IS new.variant_id AND sku IS new.sku AND status IS new.status
		AND locale = coalesce(CASE WHEN new.detail_fetched_at IS NOT NULL THEN new.locale END, '') AND month = CASE WHEN new.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*' THEN substr(new.created_at, 1, 7) ELSE new.created_at END);
	UPDATE report_months SET n = n + 1, detailed = detailed + (new.detail_fetched_at IS NOT NULL), opened = opened + (new.detail_fetched_at IS NOT NULL AND new.opened IS NOT NULL AND new.opened NOT IN (0, '0', '')), clicked = clicked + (new.detail_fetched_at IS NOT NULL AND new.clicked IS NOT NULL AND new.clicked NOT IN (0, '0', '')),
		unsubscribed = unsubscribed + (new.detail_fetched_at IS NOT NULL AND new.unsubscribe IS 1),
		oldest = CASE WHEN new.created_at < oldest OR oldest IS NULL THEN new.created_at ELSE oldest END
	WHERE new.gone_at IS NULL AND new.created_at IS NOT NULL
		AND product_id IS new.product_id AND variant_id IS new.variant_id AND sku IS new.sku AND status IS new.status
		AND locale = coalesce(CASE WHEN new.detail_fetched_at IS NOT NULL THEN new.locale END, '') AND month = CASE WHEN new.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*' THEN substr(new.created_at, 1, 7) ELSE new.created_at END;
END;
`

const postgresMonths = `
CREATE TABLE storectl.report_months (
	store        text NOT NULL,
	product_id   bigint,
	variant_id   bigint,
	sku          text,
	locale       text NOT NULL,
	status       integer,
	month        text NOT NULL,
	n            integer NOT NULL DEFAULT 0,
	detailed     integer NOT NULL DEFAULT 0,
	opened       integer NOT NULL DEFAULT 0,
	clicked      integer NOT NULL DEFAULT 0,
	unsubscribed integer NOT NULL DEFAULT 0,
	oldest       text,
	CONSTRAINT report_months_key UNIQUE NULLS NOT DISTINCT (store, product_id, variant_id, sku, status, locale, month)
);
CREATE VIEW storectl_store.report_months WITH (security_invoker = true) AS SELECT * FROM storectl.report_months WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.report_months ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);

-- A created_at's month: its first 7 characters when of the API's form, else
-- itself.
CREATE FUNCTION storectl.report_month(c text) RETURNS text LANGUAGE sql IMMUTABLE AS
	$$SELECT CASE WHEN c ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}' THEN substr(c, 1, 7) ELSE c END$$;
CREATE INDEX report_tally_quarter ON storectl.report_tally (store, quarter);

-- A live row joins its month's count (sign 1) or leaves it (sign -1), as
-- report_total_count counts the total.
CREATE FUNCTION storectl.report_months_count(r storectl.submissions, sign integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	m text := storectl.report_month(r.created_at);
	l text := storectl.report_locale(r);
	d integer := (r.detail_fetched_at IS NOT NULL)::int;
	at tid;
	left_n integer;
	was_oldest text;
BEGIN
	IF m IS NULL THEN
		RETURN;
	END IF;
	INSERT INTO storectl.report_months AS t (store, product_id, variant_id, sku, locale, status, month, n, detailed, opened, clicked, unsubscribed, oldest)
	VALUES (r.store, r.product_id, r.variant_id, r.sku, l, r.status, m, sign, sign * d,
		sign * d * storectl.report_engaged(r.opened)::int, sign * d * storectl.report_engaged(r.clicked)::int,
		sign * d * (r.unsubscribe IS NOT DISTINCT FROM 1)::int, CASE WHEN sign > 0 THEN r.created_at END)
	ON CONFLICT ON CONSTRAINT report_months_key DO UPDATE SET n = t.n + excluded.n, detailed = t.detailed + excluded.detailed,
		opened = t.opened + excluded.opened, clicked = t.clicked + excluded.clicked, unsubscribed = t.unsubscribed + excluded.unsubscribed,
		oldest = CASE WHEN sign > 0 AND (r.created_at < t.oldest OR t.oldest IS NULL) THEN r.created_at ELSE t.oldest END
	RETURNING t.ctid, t.n, t.oldest INTO at, left_n, was_oldest;
	IF sign > 0 THEN
		RETURN;
	ELSIF left_n <= 0 THEN
		DELETE FROM storectl.report_months WHERE ctid = at;
	ELSIF r.created_at IS NOT DISTINCT FROM was_oldest THEN
		UPDATE storectl.report_months SET oldest = (SELECT min(g.created_at) FROM storectl.live_group(r.store, r.product_id, r.variant_id) g
			WHERE g.sku IS NOT DISTINCT FROM r.sku AND g.status IS NOT DISTINCT FROM r.status
			AND coalesce(CASE WHEN g.detail_fetched_at IS NOT NULL THEN g.locale END, '') = l AND storectl.report_month(g.created_at) = m)
		WHERE ctid = at;
	END IF;
END $$;

CREATE FUNCTION storectl.submissions_report_months() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF storectl.tallies_deferred(coalesce(NEW.store, OLD.store)) THEN
		RETURN NULL;
	END IF;
	IF TG_OP <> 'INSERT' AND OLD.gone_at IS NULL THEN
		PERFORM storectl.report_months_count(OLD, -1);
	END IF;
	IF TG_OP <> 'DELETE' AND NEW.gone_at IS NULL THEN
		PERFORM storectl.report_months_count(NEW, 1);
	END IF;
	RETURN NULL;
END $$;
CREATE TRIGGER submissions_report_months_delete AFTER DELETE ON storectl.submissions
	FOR EACH ROW WHEN (OLD.gone_at IS NULL) EXECUTE FUNCTION storectl.submissions_report_months();
CREATE TRIGGER submissions_report_months_update AFTER UPDATE OF product_id, variant_id, sku, status, created_at, gone_at, detail_fetched_at,
		locale, opened, clicked, unsubscribe ON storectl.submissions
	FOR EACH ROW WHEN ((OLD.product_id, OLD.variant_id, OLD.sku, OLD.status, OLD.created_at, OLD.gone_at, OLD.detail_fetched_at,
		OLD.locale, OLD.opened, OLD.clicked, OLD.unsubscribe) IS DISTINCT FROM (NEW.product_id, NEW.variant_id, NEW.sku, NEW.status,
		NEW.created_at, NEW.gone_at, NEW.detail_fetched_at, NEW.locale, NEW.opened, NEW.clicked, NEW.unsubscribe))
	EXECUTE FUNCTION storectl.submissions_report_months();

-- Rows an INSERT brings are counted once per statement, with the total's
-- (the statement's one check of whether the store's tallies are deferred).
CREATE OR REPLACE FUNCTION storectl.submissions_report_total_joined() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	counted text[]; -- the stores among the statement's live rows whose tallies are kept row by row
BEGIN
	WITH stores AS MATERIALIZED (SELECT DISTINCT store FROM joined WHERE gone_at IS NULL)
	SELECT array_agg(store) INTO counted FROM stores WHERE NOT storectl.tallies_deferred(store);
	IF counted IS NULL THEN
		RETURN NULL;
	END IF;
	INSERT INTO storectl.report_total AS t (store, product_id, variant_id, sku, locale, status, n, detailed, opened, clicked, unsubscribed, oldest)
	SELECT s.store, s.product_id, s.variant_id, s.sku, coalesce(CASE WHEN s.detail_fetched_at IS NOT NULL THEN s.locale END, ''), s.status,
		count(*), count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL),
		count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL AND storectl.report_engaged(s.opened)),
		count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL AND storectl.report_engaged(s.clicked)),
		count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL AND s.unsubscribe = 1), min(s.created_at)
	FROM joined s WHERE s.gone_at IS NULL AND s.store = ANY (counted) AND storectl.report_open(s.created_at)
	GROUP BY 1, 2, 3, 4, 5, 6
	ON CONFLICT ON CONSTRAINT report_total_key DO UPDATE SET n = t.n + excluded.n, detailed = t.detailed + excluded.detailed,
		opened = t.opened + excluded.opened, clicked = t.clicked + excluded.clicked, unsubscribed = t.unsubscribed + excluded.unsubscribed,
		oldest = CASE WHEN excluded.oldest < t.oldest OR t.oldest IS NULL THEN excluded.oldest ELSE t.oldest END;
	INSERT INTO storectl.report_months AS t (store, product_id, variant_id, sku, locale, status, month, n, detailed, opened, clicked, unsubscribed, oldest)
	SELECT s.store, s.product_id, s.variant_id, s.sku, coalesce(CASE WHEN s.detail_fetched_at IS NOT NULL THEN s.locale END, ''), s.status,
		storectl.report_month(s.created_at), count(*), count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL),
		count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL AND storectl.report_engaged(s.opened)),
		count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL AND storectl.report_engaged(s.clicked)),
		count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL AND s.unsubscribe = 1), min(s.created_at)
	FROM joined s WHERE s.gone_at IS NULL AND s.store = ANY (counted) AND storectl.report_month(s.created_at) IS NOT NULL
	GROUP BY 1, 2, 3, 4, 5, 6, 7
	ON CONFLICT ON CONSTRAINT report_months_key DO UPDATE SET n = t.n + excluded.n, detailed = t.detailed + excluded.detailed,
		opened = t.opened + excluded.opened, clicked = t.clicked + excluded.clicked, unsubscribed = t.unsubscribed + excluded.unsubscribed,
		oldest = CASE WHEN excluded.oldest < t.oldest OR t.oldest IS NULL THEN excluded.oldest ELSE t.oldest END;
	INSERT INTO storectl.report_quarters AS t (store, quarter, status, n)
	SELECT s.store, storectl.report_quarter(s.created_at), s.status, count(*)
	FROM joined s WHERE s.gone_at IS NULL AND s.store = ANY (counted) GROUP BY 1, 2, 3
	ON CONFLICT ON CONSTRAINT report_quarters_key DO UPDATE SET n = t.n + excluded.n;
	INSERT INTO storectl.report_days AS t (store, day, product_id, variant_id, n)
	SELECT s.store, substr(s.created_at, 1, 10), s.product_id, s.variant_id, count(*)
	FROM joined s WHERE s.gone_at IS NULL AND s.store = ANY (counted) GROUP BY 1, 2, 3, 4
	ON CONFLICT ON CONSTRAINT report_days_key DO UPDATE SET n = t.n + excluded.n;
	RETURN NULL;
END $$;

-- The store's months counted afresh from its report_tally (counted first),
-- in key order, as the totals are.
CREATE FUNCTION storectl.count_report_months(s text) RETURNS void LANGUAGE sql SET plan_cache_mode = auto AS $$
DELETE FROM storectl.report_months WHERE store = s;
INSERT INTO storectl.report_months (store, product_id, variant_id, sku, locale, status, month, n, detailed, opened, clicked, unsubscribed, oldest)
SELECT store, product_id, variant_id, sku, locale, status, storectl.report_month(quarter), sum(n), sum(detailed), sum(opened), sum(clicked), sum(unsubscribed), min(oldest)
FROM storectl.report_tally WHERE store = s AND quarter IS NOT NULL
GROUP BY 1, 2, 3, 4, 6, 5, 7 ORDER BY 1, 2, 3, 4, 6, 5, 7;
$$;
SELECT storectl.count_report_months(store) FROM storectl.stores;

CREATE OR REPLACE FUNCTION storectl.forget_report() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		DELETE FROM storectl.report_tally;
		DELETE FROM storectl.report_total;
		DELETE FROM storectl.report_quarters;
		DELETE FROM storectl.report_days;
		DELETE FROM storectl.report_months;
	ELSE
		DELETE FROM storectl.report_tally WHERE store = OLD.store;
		DELETE FROM storectl.report_total WHERE store = OLD.store;
		DELETE FROM storectl.report_quarters WHERE store = OLD.store;
		DELETE FROM storectl.report_days WHERE store = OLD.store;
		DELETE FROM storectl.report_months WHERE store = OLD.store;
	END IF;
	RETURN NULL;
END $$;
`

// sqliteQuarterCovering is the part's fourth SQLite migration: the index
// on report_tally's quarter holds the columns a range reads, so that a
// range within a month reads the index alone, in quarter order, rather
// than a table row per entry (slower, for a few weeks of a large store,
// than the scan of the whole table it replaced).
const sqliteQuarterCovering = `
DROP INDEX report_tally_quarter;
` + sqliteQuarterIndex + `;
`

// sqliteQuarterIndex is report_tally's index on quarter, as the fourth
// migration makes it and the end of a first pass makes it again.
const sqliteQuarterIndex = `CREATE INDEX report_tally_quarter ON report_tally (quarter, product_id, variant_id, sku, status, locale, n, detailed,
	opened, clicked, unsubscribed, oldest)`
