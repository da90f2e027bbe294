package schema

// The part's second migration: report_tally counts per quarter hour, so a
// report of the whole store read about as many tally entries as rows (a
// real store's rows spread over thousands of quarter hours and a thousand
// variants, few in each). These tallies drop the dimensions each read does
// not need, so what it reads grows with products and periods, not rows:
//
//   - report_total: report_tally summed over the quarters of the report's
//     open range (created_at from '' to '9999', the bounds of a report
//     without --since and --until): the groups and locales of such a
//     report;
//   - report_quarters: per quarter and status, over every product: the
//     periods' signups and the waitlist's ranks of a report kept to no
//     product, variant or SKU;
//   - report_days: per UTC day of created_at (its first 10 characters,
//     which order as created_at does against a bound of 10 characters or
//     fewer), product and variant: the signups of the last 7 and 28 days.
//
// They are kept by their own triggers in the transaction that writes the
// rows, and counted afresh from report_tally (which holds every dimension
// they keep) where a first pass that deferred the triggers ends.

// The fills count the three from report_tally (filled first).
const (
	fillTotalSQLite = `INSERT INTO report_total (product_id, variant_id, sku, locale, status, n, detailed, opened, clicked, unsubscribed, oldest)
SELECT product_id, variant_id, sku, locale, status, sum(n), sum(detailed), sum(opened), sum(clicked), sum(unsubscribed), min(oldest)
FROM report_tally WHERE quarter >= '' AND quarter < '9999' GROUP BY product_id, variant_id, sku, locale, status`
	fillQuartersSQLite = `INSERT INTO report_quarters (quarter, status, n)
SELECT quarter, status, sum(n) FROM report_tally GROUP BY quarter, status`
	fillDaysSQLite = `INSERT INTO report_days (day, product_id, variant_id, n)
SELECT substr(quarter, 1, 10), product_id, variant_id, sum(n) FROM report_tally GROUP BY 1, 2, 3`
)

// sqliteTotals makes the three, counts them from report_tally, and keeps
// them by triggers: a live row (new, old) joins its count in each or leaves
// it (a count left at 0 goes; a total's oldest is read again from the rows
// when the leaving row was it), with report_tally's spellings of what a row
// counts for. A constant: the part is registered before main runs.
const sqliteTotals = `
CREATE TABLE report_total (
	product_id   INTEGER,
	variant_id   INTEGER,
	sku          TEXT,
	locale       TEXT NOT NULL,
	status       INTEGER,
	n            INTEGER NOT NULL DEFAULT 0,
	detailed     INTEGER NOT NULL DEFAULT 0,
	opened       INTEGER NOT NULL DEFAULT 0,
	clicked      INTEGER NOT NULL DEFAULT 0,
	unsubscribed INTEGER NOT NULL DEFAULT 0,
	oldest       TEXT
);
CREATE INDEX report_total_key ON report_total (product_id, variant_id, sku, status, locale);
CREATE TABLE report_quarters (
	quarter TEXT,
	status  INTEGER,
	n       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX report_quarters_key ON report_quarters (quarter, status, n);
CREATE TABLE report_days (
	day        TEXT,
	product_id INTEGER,
	variant_id INTEGER,
	n          INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX report_days_key ON report_days (day, product_id, variant_id, n);
INSERT INTO report_total (product_id, variant_id, sku, locale, status, n, detailed, opened, clicked, unsubscribed, oldest)
SELECT product_id, variant_id, sku, locale, status, sum(n), sum(detailed), sum(opened), sum(clicked), sum(unsubscribed), min(oldest)
FROM report_tally WHERE quarter >= '' AND quarter < '9999' GROUP BY product_id, variant_id, sku, locale, status;
INSERT INTO report_quarters (quarter, status, n)
SELECT quarter, status, sum(n) FROM report_tally GROUP BY quarter, status;
INSERT INTO report_days (day, product_id, variant_id, n)
SELECT substr(quarter, 1, 10), product_id, variant_id, sum(n) FROM report_tally GROUP BY 1, 2, 3;

CREATE TRIGGER submissions_report_total_insert AFTER INSERT ON submissions WHEN new.gone_at IS NULL
BEGIN
	INSERT INTO report_total (product_id, variant_id, sku, locale, status)
	SELECT new.product_id, new.variant_id, new.sku, coalesce(CASE WHEN new.detail_fetched_at IS NOT NULL THEN new.locale END, ''), new.status
	WHERE new.gone_at IS NULL AND new.created_at >= '' AND new.created_at < '9999' AND NOT EXISTS (SELECT 1 FROM report_total WHERE product_id IS new.product_id AND variant_id IS new.variant_id AND sku IS new.sku AND status IS new.status AND locale = coalesce(CASE WHEN new.detail_fetched_at IS NOT NULL THEN new.locale END, ''));
	UPDATE report_total SET n = n + 1, detailed = detailed + (new.detail_fetched_at IS NOT NULL), opened = opened + (new.detail_fetched_at IS NOT NULL AND new.opened IS NOT NULL AND new.opened NOT IN (0, '0', '')), clicked = clicked + (new.detail_fetched_at IS NOT NULL AND new.clicked IS NOT NULL AND new.clicked NOT IN (0, '0', '')),
		unsubscribed = unsubscribed + (new.detail_fetched_at IS NOT NULL AND new.unsubscribe IS 1),
		oldest = CASE WHEN new.created_at < oldest OR oldest IS NULL THEN new.created_at ELSE oldest END
	WHERE new.gone_at IS NULL AND new.created_at >= '' AND new.created_at < '9999' AND product_id IS new.product_id AND variant_id IS new.variant_id AND sku IS new.sku AND status IS new.status AND locale = coalesce(CASE WHEN new.detail_fetched_at IS NOT NULL THEN new.locale END, '');
	INSERT INTO report_quarters (quarter, status) SELECT CASE WHEN new.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(new.created_at, 1, 14) || printf('%02d', CAST(substr(new.created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE new.created_at END, new.status
	WHERE new.gone_at IS NULL AND NOT EXISTS (SELECT 1 FROM report_quarters WHERE quarter IS CASE WHEN new.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(new.created_at, 1, 14) || printf('%02d', CAST(substr(new.created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE new.created_at END AND status IS new.status);
	UPDATE report_quarters SET n = n + 1 WHERE new.gone_at IS NULL AND quarter IS CASE WHEN new.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(new.created_at, 1, 14) || printf('%02d', CAST(substr(new.created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE new.created_at END AND status IS new.status;
	INSERT INTO report_days (day, product_id, variant_id) SELECT substr(new.created_at, 1, 10), new.product_id, new.variant_id
	WHERE new.gone_at IS NULL AND NOT EXISTS (SELECT 1 FROM report_days WHERE day IS substr(new.created_at, 1, 10)
		AND product_id IS new.product_id AND variant_id IS new.variant_id);
	UPDATE report_days SET n = n + 1 WHERE new.gone_at IS NULL AND day IS substr(new.created_at, 1, 10)
		AND product_id IS new.product_id AND variant_id IS new.variant_id;
END;

CREATE TRIGGER submissions_report_total_delete AFTER DELETE ON submissions WHEN old.gone_at IS NULL
BEGIN
	UPDATE report_total SET n = n - 1, detailed = detailed - (old.detail_fetched_at IS NOT NULL), opened = opened - (old.detail_fetched_at IS NOT NULL AND old.opened IS NOT NULL AND old.opened NOT IN (0, '0', '')), clicked = clicked - (old.detail_fetched_at IS NOT NULL AND old.clicked IS NOT NULL AND old.clicked NOT IN (0, '0', '')),
		unsubscribed = unsubscribed - (old.detail_fetched_at IS NOT NULL AND old.unsubscribe IS 1)
	WHERE old.gone_at IS NULL AND old.created_at >= '' AND old.created_at < '9999' AND product_id IS old.product_id AND variant_id IS old.variant_id AND sku IS old.sku AND status IS old.status AND locale = coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '');
	DELETE FROM report_total WHERE old.gone_at IS NULL AND old.created_at >= '' AND old.created_at < '9999' AND product_id IS old.product_id AND variant_id IS old.variant_id AND sku IS old.sku AND status IS old.status AND locale = coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '') AND n <= 0;
	UPDATE report_total SET oldest = (SELECT min(s.created_at) FROM submissions s WHERE s.gone_at IS NULL
			AND s.product_id IS old.product_id AND s.variant_id IS old.variant_id AND s.sku IS old.sku AND s.status IS old.status
			AND coalesce(CASE WHEN s.detail_fetched_at IS NOT NULL THEN s.locale END, '') = coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '') AND s.created_at >= '' AND s.created_at < '9999')
	WHERE old.gone_at IS NULL AND old.created_at >= '' AND old.created_at < '9999' AND product_id IS old.product_id AND variant_id IS old.variant_id AND sku IS old.sku AND status IS old.status AND locale = coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '') AND old.created_at IS oldest;
	UPDATE report_quarters SET n = n - 1 WHERE old.gone_at IS NULL AND quarter IS CASE WHEN old.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(old.created_at, 1, 14) || printf('%02d', CAST(substr(old.created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE old.created_at END AND status IS old.status;
	DELETE FROM report_quarters WHERE old.gone_at IS NULL AND quarter IS CASE WHEN old.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(old.created_at, 1, 14) || printf('%02d', CAST(substr(old.created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE old.created_at END AND status IS old.status AND n <= 0;
	UPDATE report_days SET n = n - 1 WHERE old.gone_at IS NULL AND day IS substr(old.created_at, 1, 10)
		AND product_id IS old.product_id AND variant_id IS old.variant_id;
	DELETE FROM report_days WHERE old.gone_at IS NULL AND day IS substr(old.created_at, 1, 10)
		AND product_id IS old.product_id AND variant_id IS old.variant_id AND n <= 0;
END;

CREATE TRIGGER submissions_report_total_update AFTER UPDATE OF product_id, variant_id, sku, status, created_at, gone_at, detail_fetched_at, locale, opened, clicked, unsubscribe ON submissions
	WHEN old.product_id IS NOT new.product_id OR old.variant_id IS NOT new.variant_id OR old.sku IS NOT new.sku OR old.status IS NOT new.status OR old.created_at IS NOT new.created_at OR old.gone_at IS NOT new.gone_at OR old.detail_fetched_at IS NOT new.detail_fetched_at OR old.locale IS NOT new.locale OR old.opened IS NOT new.opened OR old.clicked IS NOT new.clicked OR old.unsubscribe IS NOT new.unsubscribe
BEGIN
	UPDATE report_total SET n = n - 1, detailed = detailed - (old.detail_fetched_at IS NOT NULL), opened = opened - (old.detail_fetched_at IS NOT NULL AND old.opened IS NOT NULL AND old.opened NOT IN (0, '0', '')), clicked = clicked - (old.detail_fetched_at IS NOT NULL AND old.clicked IS NOT NULL AND old.clicked NOT IN (0, '0', '')),
		unsubscribed = unsubscribed - (old.detail_fetched_at IS NOT NULL AND old.unsubscribe IS 1)
	WHERE old.gone_at IS NULL AND old.created_at >= '' AND old.created_at < '9999' AND product_id IS old.product_id AND variant_id IS old.variant_id AND sku IS old.sku AND status IS old.status AND locale = coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '');
	DELETE FROM report_total WHERE old.gone_at IS NULL AND old.created_at >= '' AND old.created_at < '9999' AND product_id IS old.product_id AND variant_id IS old.variant_id AND sku IS old.sku AND status IS old.status AND locale = coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '') AND n <= 0;
	UPDATE report_total SET oldest = (SELECT min(s.created_at) FROM submissions s WHERE s.gone_at IS NULL
			AND s.product_id IS old.product_id AND s.variant_id IS old.variant_id AND s.sku IS old.sku AND s.status IS old.status
			AND coalesce(CASE WHEN s.detail_fetched_at IS NOT NULL THEN s.locale END, '') = coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '') AND s.created_at >= '' AND s.created_at < '9999')
	WHERE old.gone_at IS NULL AND old.created_at >= '' AND old.created_at < '9999' AND product_id IS old.product_id AND variant_id IS old.variant_id AND sku IS old.sku AND status IS old.status AND locale = coalesce(CASE WHEN old.detail_fetched_at IS NOT NULL THEN old.locale END, '') AND old.created_at IS oldest;
	UPDATE report_quarters SET n = n - 1 WHERE old.gone_at IS NULL AND quarter IS CASE WHEN old.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(old.created_at, 1, 14) || printf('%02d', CAST(substr(old.created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE old.created_at END AND status IS old.status;
	DELETE FROM report_quarters WHERE old.gone_at IS NULL AND quarter IS CASE WHEN old.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(old.created_at, 1, 14) || printf('%02d', CAST(substr(old.created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE old.created_at END AND status IS old.status AND n <= 0;
	UPDATE report_days SET n = n - 1 WHERE old.gone_at IS NULL AND day IS substr(old.created_at, 1, 10)
		AND product_id IS old.product_id AND variant_id IS old.variant_id;
	DELETE FROM report_days WHERE old.gone_at IS NULL AND day IS substr(old.created_at, 1, 10)
		AND product_id IS old.product_id AND variant_id IS old.variant_id AND n <= 0;
	INSERT INTO report_total (product_id, variant_id, sku, locale, status)
	SELECT new.product_id, new.variant_id, new.sku, coalesce(CASE WHEN new.detail_fetched_at IS NOT NULL THEN new.locale END, ''), new.status
	WHERE new.gone_at IS NULL AND new.created_at >= '' AND new.created_at < '9999' AND NOT EXISTS (SELECT 1 FROM report_total WHERE product_id IS new.product_id AND variant_id IS new.variant_id AND sku IS new.sku AND status IS new.status AND locale = coalesce(CASE WHEN new.detail_fetched_at IS NOT NULL THEN new.locale END, ''));
	UPDATE report_total SET n = n + 1, detailed = detailed + (new.detail_fetched_at IS NOT NULL), opened = opened + (new.detail_fetched_at IS NOT NULL AND new.opened IS NOT NULL AND new.opened NOT IN (0, '0', '')), clicked = clicked + (new.detail_fetched_at IS NOT NULL AND new.clicked IS NOT NULL AND new.clicked NOT IN (0, '0', '')),
		unsubscribed = unsubscribed + (new.detail_fetched_at IS NOT NULL AND new.unsubscribe IS 1),
		oldest = CASE WHEN new.created_at < oldest OR oldest IS NULL THEN new.created_at ELSE oldest END
	WHERE new.gone_at IS NULL AND new.created_at >= '' AND new.created_at < '9999' AND product_id IS new.product_id AND variant_id IS new.variant_id AND sku IS new.sku AND status IS new.status AND locale = coalesce(CASE WHEN new.detail_fetched_at IS NOT NULL THEN new.locale END, '');
	INSERT INTO report_quarters (quarter, status) SELECT CASE WHEN new.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(new.created_at, 1, 14) || printf('%02d', CAST(substr(new.created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE new.created_at END, new.status
	WHERE new.gone_at IS NULL AND NOT EXISTS (SELECT 1 FROM report_quarters WHERE quarter IS CASE WHEN new.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(new.created_at, 1, 14) || printf('%02d', CAST(substr(new.created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE new.created_at END AND status IS new.status);
	UPDATE report_quarters SET n = n + 1 WHERE new.gone_at IS NULL AND quarter IS CASE WHEN new.created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(new.created_at, 1, 14) || printf('%02d', CAST(substr(new.created_at, 15, 2) AS INTEGER) / 15 * 15)
			ELSE new.created_at END AND status IS new.status;
	INSERT INTO report_days (day, product_id, variant_id) SELECT substr(new.created_at, 1, 10), new.product_id, new.variant_id
	WHERE new.gone_at IS NULL AND NOT EXISTS (SELECT 1 FROM report_days WHERE day IS substr(new.created_at, 1, 10)
		AND product_id IS new.product_id AND variant_id IS new.variant_id);
	UPDATE report_days SET n = n + 1 WHERE new.gone_at IS NULL AND day IS substr(new.created_at, 1, 10)
		AND product_id IS new.product_id AND variant_id IS new.variant_id;
END;
`

const postgresTotals = `
-- bis report's coarser tallies (see report_tally): report_total sums it
-- over the quarters of the open range (created_at from '' to '9999'),
-- report_quarters over products, variants, SKUs and locales, report_days
-- per UTC day (created_at's first 10 characters), product and variant.
CREATE TABLE storectl.report_total (
	store        text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	product_id   bigint,
	variant_id   bigint,
	sku          text,
	locale       text NOT NULL,
	status       integer,
	n            integer NOT NULL DEFAULT 0,
	detailed     integer NOT NULL DEFAULT 0,
	opened       integer NOT NULL DEFAULT 0,
	clicked      integer NOT NULL DEFAULT 0,
	unsubscribed integer NOT NULL DEFAULT 0,
	oldest       text,
	CONSTRAINT report_total_key UNIQUE NULLS NOT DISTINCT (store, product_id, variant_id, sku, status, locale)
);
CREATE TABLE storectl.report_quarters (
	store   text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	quarter text,
	status  integer,
	n       integer NOT NULL DEFAULT 0,
	CONSTRAINT report_quarters_key UNIQUE NULLS NOT DISTINCT (store, quarter, status)
);
CREATE TABLE storectl.report_days (
	store      text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	day        text,
	product_id bigint,
	variant_id bigint,
	n          integer NOT NULL DEFAULT 0,
	CONSTRAINT report_days_key UNIQUE NULLS NOT DISTINCT (store, day, product_id, variant_id)
);
CREATE VIEW storectl_store.report_total WITH (security_invoker = true) AS SELECT * FROM storectl.report_total WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.report_total ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.report_quarters WITH (security_invoker = true) AS SELECT * FROM storectl.report_quarters WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.report_quarters ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.report_days WITH (security_invoker = true) AS SELECT * FROM storectl.report_days WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.report_days ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);

-- A created_at in the open range of a report.
CREATE FUNCTION storectl.report_open(c text) RETURNS boolean LANGUAGE sql IMMUTABLE AS
	$$SELECT coalesce(c >= '' AND c < '9999', false)$$;

-- A live row joins the three (sign 1) or leaves them (sign -1); a count
-- left at 0 goes, and a total's oldest is read again when the leaving row
-- was it.
CREATE FUNCTION storectl.report_total_count(r storectl.submissions, sign integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	l text := storectl.report_locale(r);
	d integer := (r.detail_fetched_at IS NOT NULL)::int;
	at tid;
	left_n integer;
	was_oldest text;
BEGIN
	INSERT INTO storectl.report_quarters AS t (store, quarter, status, n) VALUES (r.store, storectl.report_quarter(r.created_at), r.status, sign)
	ON CONFLICT ON CONSTRAINT report_quarters_key DO UPDATE SET n = t.n + excluded.n
	RETURNING t.ctid, t.n INTO at, left_n;
	IF left_n <= 0 THEN
		DELETE FROM storectl.report_quarters WHERE ctid = at;
	END IF;
	INSERT INTO storectl.report_days AS t (store, day, product_id, variant_id, n) VALUES (r.store, substr(r.created_at, 1, 10), r.product_id, r.variant_id, sign)
	ON CONFLICT ON CONSTRAINT report_days_key DO UPDATE SET n = t.n + excluded.n
	RETURNING t.ctid, t.n INTO at, left_n;
	IF left_n <= 0 THEN
		DELETE FROM storectl.report_days WHERE ctid = at;
	END IF;
	IF NOT storectl.report_open(r.created_at) THEN
		RETURN;
	END IF;
	INSERT INTO storectl.report_total AS t (store, product_id, variant_id, sku, locale, status, n, detailed, opened, clicked, unsubscribed, oldest)
	VALUES (r.store, r.product_id, r.variant_id, r.sku, l, r.status, sign, sign * d,
		sign * d * storectl.report_engaged(r.opened)::int, sign * d * storectl.report_engaged(r.clicked)::int,
		sign * d * (r.unsubscribe IS NOT DISTINCT FROM 1)::int, CASE WHEN sign > 0 THEN r.created_at END)
	ON CONFLICT ON CONSTRAINT report_total_key DO UPDATE SET n = t.n + excluded.n, detailed = t.detailed + excluded.detailed,
		opened = t.opened + excluded.opened, clicked = t.clicked + excluded.clicked, unsubscribed = t.unsubscribed + excluded.unsubscribed,
		oldest = CASE WHEN sign > 0 AND (r.created_at < t.oldest OR t.oldest IS NULL) THEN r.created_at ELSE t.oldest END
	RETURNING t.ctid, t.n, t.oldest INTO at, left_n, was_oldest;
	IF sign > 0 THEN
		RETURN;
	ELSIF left_n <= 0 THEN
		DELETE FROM storectl.report_total WHERE ctid = at;
	ELSIF r.created_at IS NOT DISTINCT FROM was_oldest THEN
		UPDATE storectl.report_total SET oldest = (SELECT min(g.created_at) FROM storectl.live_group(r.store, r.product_id, r.variant_id) g
			WHERE g.sku IS NOT DISTINCT FROM r.sku AND g.status IS NOT DISTINCT FROM r.status
			AND coalesce(CASE WHEN g.detail_fetched_at IS NOT NULL THEN g.locale END, '') = l AND storectl.report_open(g.created_at))
		WHERE ctid = at;
	END IF;
END $$;

CREATE FUNCTION storectl.submissions_report_total() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF storectl.tallies_deferred(coalesce(NEW.store, OLD.store)) THEN
		RETURN NULL;
	END IF;
	IF TG_OP <> 'INSERT' AND OLD.gone_at IS NULL THEN
		PERFORM storectl.report_total_count(OLD, -1);
	END IF;
	IF TG_OP <> 'DELETE' AND NEW.gone_at IS NULL THEN
		PERFORM storectl.report_total_count(NEW, 1);
	END IF;
	RETURN NULL;
END $$;

CREATE TRIGGER submissions_report_total_delete AFTER DELETE ON storectl.submissions
	FOR EACH ROW WHEN (OLD.gone_at IS NULL) EXECUTE FUNCTION storectl.submissions_report_total();
CREATE TRIGGER submissions_report_total_update AFTER UPDATE OF product_id, variant_id, sku, status, created_at, gone_at, detail_fetched_at,
		locale, opened, clicked, unsubscribe ON storectl.submissions
	FOR EACH ROW WHEN ((OLD.product_id, OLD.variant_id, OLD.sku, OLD.status, OLD.created_at, OLD.gone_at, OLD.detail_fetched_at,
		OLD.locale, OLD.opened, OLD.clicked, OLD.unsubscribe) IS DISTINCT FROM (NEW.product_id, NEW.variant_id, NEW.sku, NEW.status,
		NEW.created_at, NEW.gone_at, NEW.detail_fetched_at, NEW.locale, NEW.opened, NEW.clicked, NEW.unsubscribe))
	EXECUTE FUNCTION storectl.submissions_report_total();

-- Rows an INSERT brings are counted once per statement, as report_tally's.
CREATE FUNCTION storectl.submissions_report_total_joined() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER submissions_report_total_joined AFTER INSERT ON storectl.submissions
	REFERENCING NEW TABLE AS joined FOR EACH STATEMENT EXECUTE FUNCTION storectl.submissions_report_total_joined();

-- The store's three counted afresh from its report_tally (counted first).
CREATE FUNCTION storectl.count_report_totals(s text) RETURNS void LANGUAGE sql SET plan_cache_mode = auto AS $$
DELETE FROM storectl.report_total WHERE store = s;
INSERT INTO storectl.report_total (store, product_id, variant_id, sku, locale, status, n, detailed, opened, clicked, unsubscribed, oldest)
SELECT store, product_id, variant_id, sku, locale, status, sum(n), sum(detailed), sum(opened), sum(clicked), sum(unsubscribed), min(oldest)
FROM storectl.report_tally WHERE store = s AND quarter >= '' AND quarter < '9999' GROUP BY 1, 2, 3, 4, 5, 6;
DELETE FROM storectl.report_quarters WHERE store = s;
INSERT INTO storectl.report_quarters (store, quarter, status, n)
SELECT store, quarter, status, sum(n) FROM storectl.report_tally WHERE store = s GROUP BY 1, 2, 3;
DELETE FROM storectl.report_days WHERE store = s;
INSERT INTO storectl.report_days (store, day, product_id, variant_id, n)
SELECT store, substr(quarter, 1, 10), product_id, variant_id, sum(n) FROM storectl.report_tally WHERE store = s GROUP BY 1, 2, 3, 4;
$$;
SELECT storectl.count_report_totals(store) FROM storectl.stores;
`
