// Package schema is bis report's data in the mirror (its schema part):
// report_tally, its triggers, and the indexes submissions_report and
// submissions_engagement, in each backend's dialect, and the statements
// that count the tally afresh from the rows where a first pass that
// deferred it ends. The report registers it (internal/report); it is a
// package of its own, importing nothing but the backends' shared types,
// so that the mirror's own tests can write it too.
package schema

import "github.com/storectl/storectl/internal/mirror/backend"

// Name names the part (schema_parts, storectl.meta).
const Name = "report"

// Migrations are, per dialect, the part's migrations: append, never edit.
var Migrations = map[backend.Dialect][]string{
	backend.SQLite:   {sqliteReport, sqliteTotals, sqliteMonths, sqliteQuarterCovering},
	backend.Postgres: {postgresReport, postgresTotals, postgresUnkeyed, postgresMonths, postgresWait, postgresAlone},
}

// Refill counts the tally afresh from the rows of RefillTable: on SQLite
// the whole table's (report_tally's index on quarter made again once it is
// filled, sorted once), on PostgreSQL the store's its parameter names.
var Refill = map[backend.Dialect][]string{
	backend.SQLite: {"DELETE FROM report_tally", "DROP INDEX IF EXISTS report_tally_quarter", FillSQLite,
		sqliteQuarterIndex, "DELETE FROM report_total", fillTotalSQLite,
		"DELETE FROM report_quarters", fillQuartersSQLite, "DELETE FROM report_days", fillDaysSQLite,
		"DELETE FROM report_months", fillMonthsSQLite},
	backend.Postgres: {"SELECT storectl.refill_report_tally($1)", "SELECT storectl.count_report_totals($1)",
		"SELECT storectl.count_report_months($1)"},
}

// RefillTable is the table whose first pass defers the tally's triggers.
const RefillTable = "submissions"

const sqliteReport = `
-- What bis report counts, per product, variant, SKU, status, e-mail locale
-- (of rows with their detail; '' otherwise) and quarter hour of created_at
-- (UTC; every zone's offset is a multiple of 15 minutes, so a quarter lies
-- in one day of any zone): the live submissions (n), those with their
-- detail, opened, clicked and unsubscribed (of those with their detail),
-- and the oldest created_at. quarter is created_at's first 14 characters
-- and its minute rounded down to 0, 15, 30 or 45 ('2026-11-03T14:15'),
-- which no created_at of the quarter sorts below and every one of the next
-- sorts above; a created_at not of that form is its own quarter. A report
-- counts whole quarters here and reads the rows of the two it cuts. Kept
-- exact by the triggers below in the transaction that writes the rows,
-- like demand_tally; a first pass drops them with the table's other
-- triggers and counts the tally afresh when it ends.
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

-- bis report reads every column it counts of the rows of the quarters a
-- range cuts from this index instead of the table, whose rows carry the
-- JSON as sent (at 100,000 submissions about 8 MB instead of 130 MB of
-- pages); created_at first, so that a range is a seek. The engagement of
-- sent rows with their detail (sends, opens, clicks) it reads from the
-- second, which holds those rows alone.
CREATE INDEX submissions_report ON submissions (created_at, status, product_id, variant_id, detail_fetched_at,
	locale, unsubscribe, opened, clicked, last_sent, gone_at, sku);
CREATE INDEX submissions_engagement ON submissions (created_at, last_sent, opened, clicked, product_id, variant_id, sku,
	status, detail_fetched_at, gone_at) WHERE gone_at IS NULL AND status = 1 AND detail_fetched_at IS NOT NULL;
`

const postgresReport = `
-- bis report's tally: per store, product, variant, SKU, status, e-mail
-- locale (of rows with their detail; '' otherwise) and quarter hour of
-- created_at, the live submissions (n), those with their detail, opened,
-- clicked and unsubscribed (of those with their detail), and the oldest
-- created_at; kept exact by the triggers below, as demand_tally is, and
-- counted afresh for a store whose first pass deferred its tallies.
--
-- The quarter hour of the API's created_at ('2026-11-03T14:15'); any other
-- text is its own quarter.
CREATE FUNCTION storectl.report_quarter(c text) RETURNS text LANGUAGE sql IMMUTABLE AS
	$$SELECT CASE WHEN c ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}'
		THEN substr(c, 1, 14) || lpad((substr(c, 15, 2)::int / 15 * 15)::text, 2, '0') ELSE c END$$;

CREATE TABLE storectl.report_tally (
	store        text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	product_id   bigint,
	variant_id   bigint,
	sku          text,
	locale       text NOT NULL,
	status       integer,
	quarter      text,
	n            integer NOT NULL DEFAULT 0,
	detailed     integer NOT NULL DEFAULT 0,
	opened       integer NOT NULL DEFAULT 0,
	clicked      integer NOT NULL DEFAULT 0,
	unsubscribed integer NOT NULL DEFAULT 0,
	oldest       text,
	CONSTRAINT report_tally_key UNIQUE NULLS NOT DISTINCT (store, product_id, variant_id, sku, status, locale, quarter)
);
CREATE VIEW storectl_store.report_tally WITH (security_invoker = true) AS SELECT * FROM storectl.report_tally WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.report_tally ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);

-- What a row counts for in the tally: its locale when it has its detail,
-- and whether an opened or clicked value is one (the API's 0 is not).
CREATE FUNCTION storectl.report_locale(r storectl.submissions) RETURNS text LANGUAGE sql IMMUTABLE AS
	$$SELECT coalesce(CASE WHEN r.detail_fetched_at IS NOT NULL THEN r.locale END, '')$$;
CREATE FUNCTION storectl.report_engaged(v text) RETURNS boolean LANGUAGE sql IMMUTABLE AS
	$$SELECT v IS NOT NULL AND v NOT IN ('0', '')$$;

-- A live row joins its count (sign 1) or leaves it (sign -1); a count left
-- at 0 goes, and its oldest is read again when the leaving row was it.
CREATE FUNCTION storectl.report_count(r storectl.submissions, sign integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	q text := storectl.report_quarter(r.created_at);
	l text := storectl.report_locale(r);
	d integer := (r.detail_fetched_at IS NOT NULL)::int;
	at tid;
	left_n integer;
	was_oldest text;
BEGIN
	INSERT INTO storectl.report_tally AS t (store, product_id, variant_id, sku, locale, status, quarter, n, detailed, opened, clicked,
		unsubscribed, oldest)
	VALUES (r.store, r.product_id, r.variant_id, r.sku, l, r.status, q, sign, sign * d,
		sign * d * storectl.report_engaged(r.opened)::int, sign * d * storectl.report_engaged(r.clicked)::int,
		sign * d * (r.unsubscribe IS NOT DISTINCT FROM 1)::int, CASE WHEN sign > 0 THEN r.created_at END)
	ON CONFLICT ON CONSTRAINT report_tally_key DO UPDATE SET n = t.n + excluded.n, detailed = t.detailed + excluded.detailed,
		opened = t.opened + excluded.opened, clicked = t.clicked + excluded.clicked, unsubscribed = t.unsubscribed + excluded.unsubscribed,
		oldest = CASE WHEN sign > 0 AND (r.created_at < t.oldest OR t.oldest IS NULL) THEN r.created_at ELSE t.oldest END
	RETURNING t.ctid, t.n, t.oldest INTO at, left_n, was_oldest;
	IF sign > 0 THEN
		RETURN;
	ELSIF left_n <= 0 THEN
		DELETE FROM storectl.report_tally WHERE ctid = at;
	ELSIF r.created_at IS NOT DISTINCT FROM was_oldest THEN
		UPDATE storectl.report_tally SET oldest = (SELECT min(g.created_at) FROM storectl.live_group(r.store, r.product_id, r.variant_id) g
			WHERE g.sku IS NOT DISTINCT FROM r.sku AND g.status IS NOT DISTINCT FROM r.status
			AND coalesce(CASE WHEN g.detail_fetched_at IS NOT NULL THEN g.locale END, '') = l
			AND storectl.report_quarter(g.created_at) IS NOT DISTINCT FROM q)
		WHERE ctid = at;
	END IF;
END $$;

-- Updates and deletes, row by row, leaving out a store whose tallies are
-- deferred.
CREATE FUNCTION storectl.submissions_report() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE TRIGGER submissions_report_delete AFTER DELETE ON storectl.submissions
	FOR EACH ROW WHEN (OLD.gone_at IS NULL) EXECUTE FUNCTION storectl.submissions_report();
CREATE TRIGGER submissions_report_update AFTER UPDATE OF product_id, variant_id, sku, status, created_at, gone_at, detail_fetched_at,
		locale, opened, clicked, unsubscribe ON storectl.submissions
	FOR EACH ROW WHEN ((OLD.product_id, OLD.variant_id, OLD.sku, OLD.status, OLD.created_at, OLD.gone_at, OLD.detail_fetched_at,
		OLD.locale, OLD.opened, OLD.clicked, OLD.unsubscribe) IS DISTINCT FROM (NEW.product_id, NEW.variant_id, NEW.sku, NEW.status,
		NEW.created_at, NEW.gone_at, NEW.detail_fetched_at, NEW.locale, NEW.opened, NEW.clicked, NEW.unsubscribe))
	EXECUTE FUNCTION storectl.submissions_report();

-- Rows an INSERT brings are counted once per statement (a page's rows are
-- one statement), as the mirror's own tallies are (submissions_joined).
CREATE FUNCTION storectl.submissions_report_joined() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	counted text[]; -- the stores among the statement's live rows whose tallies are kept row by row
BEGIN
	WITH stores AS MATERIALIZED (SELECT DISTINCT store FROM joined WHERE gone_at IS NULL)
	SELECT array_agg(store) INTO counted FROM stores WHERE NOT storectl.tallies_deferred(store);
	IF counted IS NULL THEN
		RETURN NULL;
	END IF;
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
CREATE TRIGGER submissions_report_joined AFTER INSERT ON storectl.submissions
	REFERENCING NEW TABLE AS joined FOR EACH STATEMENT EXECUTE FUNCTION storectl.submissions_report_joined();

-- The store's tally counted afresh from its rows (the end of its first
-- pass), with the plans PostgreSQL keeps.
CREATE FUNCTION storectl.count_report_tally(s text) RETURNS void LANGUAGE sql SET plan_cache_mode = auto AS $$
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

-- bis report reads every column it counts of the rows of the quarters a
-- range cuts from this index, and the engagement of sent rows with their
-- detail from the second, instead of the table's wide rows.
CREATE INDEX submissions_report ON storectl.submissions (store, created_at, status, product_id, variant_id, detail_fetched_at,
	locale, unsubscribe, opened, clicked, last_sent, gone_at, sku);
CREATE INDEX submissions_engagement ON storectl.submissions (store, created_at, last_sent, opened, clicked, product_id, variant_id, sku)
	WHERE gone_at IS NULL AND status = 1 AND detail_fetched_at IS NOT NULL;
`

// FillSQLite counts report_tally afresh from the rows (as the triggers
// keep it), read as the mirror's own fills read them: "+gone_at" keeps
// SQLite's planner on the covering index submissions_report.
const FillSQLite = `INSERT INTO report_tally (product_id, variant_id, sku, locale, status, quarter, n, detailed, opened, clicked, unsubscribed, oldest)
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
	FROM submissions WHERE +gone_at IS NULL) AS k
GROUP BY product_id, variant_id, sku, l, status, q`
