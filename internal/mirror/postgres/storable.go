package postgres

// pgStorableJSON is migration 22. A row's JSON as sent (list_json,
// detail_json) is text holding the server's escapes as written, so it
// keeps any JSON string; jsonb cannot hold U+0000 ("\u0000") nor a lone
// surrogate ("\ud800"), and the cast list_json::jsonb of the baseline's
// generated columns refused such a row, and with it the page's
// transaction, on every retry of the pass. The *_jsonb columns are now
// filled by a trigger through storectl.storable_json, which gives the same
// jsonb for any other JSON and, for these, the JSON with each of those
// escapes read as U+FFFD: SQL that reaches into the jsonb sees the
// replacement, every answer that prints a row prints list_json, unchanged.
// PostgreSQL 15 cannot change a generated column's expression, and
// dropping the column would drop the views over it (and the grants a DBA
// gave on them): the columns stay, their values come from the trigger.
const pgStorableJSON = `
-- JSON text as jsonb. Text without an escape jsonb refuses is cast as
-- is; otherwise the text is cut into its escapes and the runs between
-- them (a surrogate pair whole, so that only a lone surrogate is
-- replaced; an escaped backslash whole, so that the "u" after it is not
-- read as an escape), and \u0000 and each lone surrogate become \ufffd.
CREATE FUNCTION storectl.storable_json(t text) RETURNS jsonb LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN t ~ '\\u(0000|[dD][89a-fA-F])' THEN
	(SELECT string_agg(CASE WHEN r.m[1] ~ '^\\u(0000|[dD][89a-fA-F][0-9a-fA-F]{2})$' THEN '\ufffd' ELSE r.m[1] END, '' ORDER BY r.n)
	FROM regexp_matches(t, '(\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\.|[^\\]+)', 'g') WITH ORDINALITY AS r(m, n))::jsonb
ELSE t::jsonb END;

-- The triggers cast the text themselves when it holds no such escape,
-- the rows of nearly every store, rather than call storable_json for each.
CREATE FUNCTION storectl.fill_list_jsonb() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW.list_json ~ '\\u(0000|[dD][89a-fA-F])' THEN
		NEW.list_jsonb := storectl.storable_json(NEW.list_json);
	ELSE
		NEW.list_jsonb := NEW.list_json::jsonb;
	END IF;
	RETURN NEW;
END $$;

CREATE FUNCTION storectl.fill_detail_jsonb() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW.detail_json ~ '\\u(0000|[dD][89a-fA-F])' THEN
		NEW.detail_jsonb := storectl.storable_json(NEW.detail_json);
	ELSE
		NEW.detail_jsonb := NEW.detail_json::jsonb;
	END IF;
	RETURN NEW;
END $$;

ALTER TABLE storectl.submissions ALTER COLUMN list_jsonb DROP EXPRESSION, ALTER COLUMN detail_jsonb DROP EXPRESSION;
ALTER TABLE storectl.offers ALTER COLUMN list_jsonb DROP EXPRESSION, ALTER COLUMN detail_jsonb DROP EXPRESSION;
ALTER TABLE storectl.priority_rows ALTER COLUMN list_jsonb DROP EXPRESSION;
ALTER TABLE storectl.rules ALTER COLUMN list_jsonb DROP EXPRESSION, ALTER COLUMN detail_jsonb DROP EXPRESSION;

CREATE TRIGGER list_jsonb BEFORE INSERT OR UPDATE OF list_json ON storectl.submissions
	FOR EACH ROW EXECUTE FUNCTION storectl.fill_list_jsonb();
CREATE TRIGGER detail_jsonb BEFORE INSERT OR UPDATE OF detail_json ON storectl.submissions
	FOR EACH ROW EXECUTE FUNCTION storectl.fill_detail_jsonb();
CREATE TRIGGER list_jsonb BEFORE INSERT OR UPDATE OF list_json ON storectl.offers
	FOR EACH ROW EXECUTE FUNCTION storectl.fill_list_jsonb();
CREATE TRIGGER detail_jsonb BEFORE INSERT OR UPDATE OF detail_json ON storectl.offers
	FOR EACH ROW EXECUTE FUNCTION storectl.fill_detail_jsonb();
CREATE TRIGGER list_jsonb BEFORE INSERT OR UPDATE OF list_json ON storectl.priority_rows
	FOR EACH ROW EXECUTE FUNCTION storectl.fill_list_jsonb();
CREATE TRIGGER list_jsonb BEFORE INSERT OR UPDATE OF list_json ON storectl.rules
	FOR EACH ROW EXECUTE FUNCTION storectl.fill_list_jsonb();
CREATE TRIGGER detail_jsonb BEFORE INSERT OR UPDATE OF detail_json ON storectl.rules
	FOR EACH ROW EXECUTE FUNCTION storectl.fill_detail_jsonb();
`

// pgJSONGiven is migration 23. The INSERT of a page (statements.go)
// computes each row's list_jsonb in the statement, the expression
// storable_json's own, so the per-row PL/pgSQL call of the trigger
// list_jsonb, a large share of the server's work of a first sync, runs only
// for an INSERT that does not give the value (another client's, an
// import); a row inserted without its detail skips detail_jsonb's trigger,
// whose value would be NULL. An UPDATE of the text fills the jsonb as
// before. A writer may already set the jsonb alone (an UPDATE of it fires
// no trigger): an INSERT giving it is trusted as that is.
const pgJSONGiven = `
DROP TRIGGER list_jsonb ON storectl.submissions;
DROP TRIGGER detail_jsonb ON storectl.submissions;
DROP TRIGGER list_jsonb ON storectl.offers;
DROP TRIGGER detail_jsonb ON storectl.offers;
DROP TRIGGER list_jsonb ON storectl.priority_rows;
DROP TRIGGER list_jsonb ON storectl.rules;
DROP TRIGGER detail_jsonb ON storectl.rules;

CREATE TRIGGER list_jsonb BEFORE UPDATE OF list_json ON storectl.submissions
	FOR EACH ROW EXECUTE FUNCTION storectl.fill_list_jsonb();
CREATE TRIGGER list_jsonb_unless_given BEFORE INSERT ON storectl.submissions
	FOR EACH ROW WHEN (NEW.list_jsonb IS NULL) EXECUTE FUNCTION storectl.fill_list_jsonb();
CREATE TRIGGER detail_jsonb BEFORE UPDATE OF detail_json ON storectl.submissions
	FOR EACH ROW EXECUTE FUNCTION storectl.fill_detail_jsonb();
CREATE TRIGGER detail_jsonb_unless_given BEFORE INSERT ON storectl.submissions
	FOR EACH ROW WHEN (NEW.detail_json IS NOT NULL AND NEW.detail_jsonb IS NULL) EXECUTE FUNCTION storectl.fill_detail_jsonb();

CREATE TRIGGER list_jsonb BEFORE UPDATE OF list_json ON storectl.offers
	FOR EACH ROW EXECUTE FUNCTION storectl.fill_list_jsonb();
CREATE TRIGGER list_jsonb_unless_given BEFORE INSERT ON storectl.offers
	FOR EACH ROW WHEN (NEW.list_jsonb IS NULL) EXECUTE FUNCTION storectl.fill_list_jsonb();
CREATE TRIGGER detail_jsonb BEFORE UPDATE OF detail_json ON storectl.offers
	FOR EACH ROW EXECUTE FUNCTION storectl.fill_detail_jsonb();
CREATE TRIGGER detail_jsonb_unless_given BEFORE INSERT ON storectl.offers
	FOR EACH ROW WHEN (NEW.detail_json IS NOT NULL AND NEW.detail_jsonb IS NULL) EXECUTE FUNCTION storectl.fill_detail_jsonb();

CREATE TRIGGER list_jsonb BEFORE UPDATE OF list_json ON storectl.priority_rows
	FOR EACH ROW EXECUTE FUNCTION storectl.fill_list_jsonb();
CREATE TRIGGER list_jsonb_unless_given BEFORE INSERT ON storectl.priority_rows
	FOR EACH ROW WHEN (NEW.list_jsonb IS NULL) EXECUTE FUNCTION storectl.fill_list_jsonb();

CREATE TRIGGER list_jsonb BEFORE UPDATE OF list_json ON storectl.rules
	FOR EACH ROW EXECUTE FUNCTION storectl.fill_list_jsonb();
CREATE TRIGGER list_jsonb_unless_given BEFORE INSERT ON storectl.rules
	FOR EACH ROW WHEN (NEW.list_jsonb IS NULL) EXECUTE FUNCTION storectl.fill_list_jsonb();
CREATE TRIGGER detail_jsonb BEFORE UPDATE OF detail_json ON storectl.rules
	FOR EACH ROW EXECUTE FUNCTION storectl.fill_detail_jsonb();
CREATE TRIGGER detail_jsonb_unless_given BEFORE INSERT ON storectl.rules
	FOR EACH ROW WHEN (NEW.detail_json IS NOT NULL AND NEW.detail_jsonb IS NULL) EXECUTE FUNCTION storectl.fill_detail_jsonb();
`
