package schema

// postgresAlone is the part's sixth PostgreSQL migration. The end of a
// store's first pass counts report_tally afresh, about an entry for every
// submission, and each entry went into the tally's two indexes as it
// came: a fifth of the pass's end. When no other store has an entry, the
// count now builds the indexes once it is done (each from one sorted
// scan), as the mirror's first pass does submissions' (defer_indexes),
// under a lock that keeps every other writer and reader of report_tally
// waiting until the pass's transaction commits, the indexes made again.
// The lock is taken only if it is free at once (a report of another
// store reading the tally keeps it); otherwise the count is the one it
// was. The indexes' and the key's definitions are read from the catalog,
// so that a later migration's indexes are made again as they are.
// Run with the owner's rights (SECURITY DEFINER), for a caller who may
// write the tally.
const postgresAlone = `
CREATE FUNCTION storectl.refill_report_tally(s text) RETURNS void LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	alone boolean;
	ix record;
	made text[] := '{}';
BEGIN
	IF NOT has_table_privilege(session_user, 'storectl.report_tally', 'INSERT') THEN
		RAISE insufficient_privilege USING MESSAGE = 'permission denied for table report_tally';
	END IF;
	BEGIN
		LOCK TABLE storectl.report_tally IN ACCESS EXCLUSIVE MODE NOWAIT;
		alone := NOT EXISTS (SELECT FROM storectl.report_tally WHERE store <> s);
	EXCEPTION WHEN lock_not_available THEN
		alone := false;
	END;
	IF NOT alone THEN
		PERFORM storectl.count_report_tally(s);
		RETURN;
	END IF;
	FOR ix IN SELECT c.relname, pg_get_indexdef(i.indexrelid) AS def, k.conname, pg_get_constraintdef(k.oid) AS condef
		FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid LEFT JOIN pg_constraint k ON k.conindid = i.indexrelid AND k.conrelid = i.indrelid
		WHERE i.indrelid = 'storectl.report_tally'::regclass ORDER BY c.relname
	LOOP
		IF ix.conname IS NOT NULL THEN
			EXECUTE format('ALTER TABLE storectl.report_tally DROP CONSTRAINT %I', ix.conname);
			made := made || format('ALTER TABLE storectl.report_tally ADD CONSTRAINT %I %s', ix.conname, ix.condef);
		ELSE
			EXECUTE format('DROP INDEX storectl.%I', ix.relname);
			made := made || ix.def;
		END IF;
	END LOOP;
	PERFORM storectl.count_report_tally(s);
	FOR i IN 1 .. coalesce(array_length(made, 1), 0) LOOP
		EXECUTE made[i];
	END LOOP;
END $$;
`
