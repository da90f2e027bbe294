package postgres

// pgStoreKeyPerStatement is migration 25, two costs of a first sync.
//
// submissions' foreign key to storectl.stores checked each row on its own
// (a trigger and a locking query per row): about a tenth of the server's
// work of a first sync, for rows that a page's statement writes for one
// store. The key is now checked once per statement, for each store among
// its rows, holding the store's row as the key's check did (FOR KEY SHARE,
// the owner's rights), so that a store is never deleted under a page being
// written: its delete waits for the page's transaction. Deleting the
// store's row deletes its submissions, as the cascade did, and so does
// TRUNCATE. What the key refused is still refused: a row of a store not
// there, a submission moved to another store, a store renamed while it
// has submissions.
//
// The cascade's delete saw the rows committed while it waited for a page,
// whatever the transaction's isolation; the trigger's sees them only in
// a READ COMMITTED transaction (each statement its own snapshot, taken
// after the wait). A store is deleted in such a transaction, psql's
// default, or not at all.
//
// fold_case folded ASCII letters through translate, which reads the
// letters' list for each character: building the two indexes on it was a
// quarter of the indexes' work at the end of a first pass. lower under
// the C collation folds ASCII letters and nothing else, the same text for
// every input, so the indexes built with the former body stay right.
const pgStoreKeyPerStatement = `
CREATE OR REPLACE FUNCTION storectl.fold_case(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
	RETURN lower(t COLLATE "C");

ALTER TABLE storectl.submissions DROP CONSTRAINT submissions_store_fkey;

CREATE FUNCTION storectl.submissions_store_held() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	s text;
BEGIN
	FOR s IN SELECT DISTINCT store FROM joined LOOP
		PERFORM FROM storectl.stores k WHERE k.store = s FOR KEY SHARE;
		IF NOT FOUND THEN
			RAISE foreign_key_violation USING
				MESSAGE = format('insert into storectl.submissions: store %L is not in storectl.stores', s),
				CONSTRAINT = 'submissions_store_fkey';
		END IF;
	END LOOP;
	RETURN NULL;
END $$;
CREATE TRIGGER submissions_store_held AFTER INSERT ON storectl.submissions
	REFERENCING NEW TABLE AS joined FOR EACH STATEMENT EXECUTE FUNCTION storectl.submissions_store_held();

CREATE FUNCTION storectl.submissions_store_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE foreign_key_violation USING
		MESSAGE = format('submission %s of store %L cannot move to another store', OLD.id, OLD.store),
		CONSTRAINT = 'submissions_store_fkey';
END $$;
CREATE TRIGGER submissions_store_kept BEFORE UPDATE OF store ON storectl.submissions
	FOR EACH ROW WHEN (OLD.store IS DISTINCT FROM NEW.store) EXECUTE FUNCTION storectl.submissions_store_kept();

CREATE FUNCTION storectl.forget_submissions() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		TRUNCATE storectl.submissions;
		RETURN NULL;
	END IF;
	IF TG_OP = 'UPDATE' THEN
		IF EXISTS (SELECT FROM storectl.submissions WHERE store = OLD.store) THEN
			RAISE foreign_key_violation USING
				MESSAGE = format('store %L has submissions: it cannot be renamed', OLD.store),
				CONSTRAINT = 'submissions_store_fkey';
		END IF;
		RETURN NULL;
	END IF;
	IF current_setting('transaction_isolation') <> 'read committed' THEN
		RAISE object_not_in_prerequisite_state USING
			MESSAGE = format('delete store %L in a READ COMMITTED transaction', OLD.store),
			DETAIL = 'Under ' || upper(current_setting('transaction_isolation')) || ', its submissions written while the delete waited would stay.',
			HINT = 'Run the DELETE on its own, or after BEGIN ISOLATION LEVEL READ COMMITTED.';
	END IF;
	DELETE FROM storectl.submissions WHERE store = OLD.store;
	RETURN NULL;
END $$;
CREATE TRIGGER forget_submissions AFTER DELETE ON storectl.stores
	FOR EACH ROW EXECUTE FUNCTION storectl.forget_submissions();
CREATE TRIGGER forget_submissions_renamed AFTER UPDATE OF store ON storectl.stores
	FOR EACH ROW WHEN (OLD.store IS DISTINCT FROM NEW.store) EXECUTE FUNCTION storectl.forget_submissions();
CREATE TRIGGER forget_submissions_all AFTER TRUNCATE ON storectl.stores
	FOR EACH STATEMENT EXECUTE FUNCTION storectl.forget_submissions();
`
