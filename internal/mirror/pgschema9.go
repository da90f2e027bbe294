package mirror

// pgVersion9 is SQLite's version 9 (issue 24, bis report's report_tally) on
// PostgreSQL: the same table with the store first, filled once from the
// rows, kept exact by a PL/pgSQL trigger as demand_tally is (pgVersion8).
// The quarter of a created_at is storectl.report_quarter, SQLite's GLOB
// and printf expression; the report's own SQL, written with them, runs
// through SQLite's printf (storectl.printf) and the rebinding of GLOB.
const pgVersion9 = `
-- SQLite's printf for the one format the mirror's SQL gives it: '%02d'.
CREATE FUNCTION storectl.printf(f text, n bigint) RETURNS text LANGUAGE sql IMMUTABLE AS
	$$SELECT replace(f, '%02d', lpad(n::text, 2, '0'))$$;

-- The quarter hour of the API's created_at ('2026-11-03T14:15'); any other
-- text is its own quarter (SQLite's version 9).
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

-- What a row counts for in the tally (SQLite's k): its locale when it has
-- its detail, and whether it is detailed, opened, clicked, unsubscribed.
CREATE FUNCTION storectl.report_locale(r storectl.submissions) RETURNS text LANGUAGE sql IMMUTABLE AS
	$$SELECT coalesce(CASE WHEN r.detail_fetched_at IS NOT NULL THEN r.locale END, '')$$;
CREATE FUNCTION storectl.report_engaged(v text) RETURNS boolean LANGUAGE sql IMMUTABLE AS
	$$SELECT v IS NOT NULL AND v NOT IN ('0', '')$$;

INSERT INTO storectl.report_tally (store, product_id, variant_id, sku, locale, status, quarter, n, detailed, opened, clicked, unsubscribed, oldest)
SELECT s.store, s.product_id, s.variant_id, s.sku, storectl.report_locale(s), s.status, storectl.report_quarter(s.created_at), count(*),
	count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL),
	count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL AND storectl.report_engaged(s.opened)),
	count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL AND storectl.report_engaged(s.clicked)),
	count(*) FILTER (WHERE s.detail_fetched_at IS NOT NULL AND s.unsubscribe = 1), min(s.created_at)
FROM storectl.submissions s WHERE s.gone_at IS NULL
GROUP BY 1, 2, 3, 4, 5, 6, 7;

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

CREATE FUNCTION storectl.submissions_report() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' AND OLD.gone_at IS NULL THEN
		PERFORM storectl.report_count(OLD, -1);
	END IF;
	IF TG_OP <> 'DELETE' AND NEW.gone_at IS NULL THEN
		PERFORM storectl.report_count(NEW, 1);
	END IF;
	RETURN NULL;
END $$;

CREATE TRIGGER submissions_report_insert AFTER INSERT ON storectl.submissions
	FOR EACH ROW WHEN (NEW.gone_at IS NULL) EXECUTE FUNCTION storectl.submissions_report();
CREATE TRIGGER submissions_report_delete AFTER DELETE ON storectl.submissions
	FOR EACH ROW WHEN (OLD.gone_at IS NULL) EXECUTE FUNCTION storectl.submissions_report();
CREATE TRIGGER submissions_report_update AFTER UPDATE OF product_id, variant_id, sku, status, created_at, gone_at, detail_fetched_at,
		locale, opened, clicked, unsubscribe ON storectl.submissions
	FOR EACH ROW WHEN ((OLD.product_id, OLD.variant_id, OLD.sku, OLD.status, OLD.created_at, OLD.gone_at, OLD.detail_fetched_at,
		OLD.locale, OLD.opened, OLD.clicked, OLD.unsubscribe) IS DISTINCT FROM (NEW.product_id, NEW.variant_id, NEW.sku, NEW.status,
		NEW.created_at, NEW.gone_at, NEW.detail_fetched_at, NEW.locale, NEW.opened, NEW.clicked, NEW.unsubscribe))
	EXECUTE FUNCTION storectl.submissions_report();
`
