package mirror

// pgVersion17 lets a store's first full pass build the secondary indexes
// of a table once, when it ends, as SQLite's does (bulk.go), when the
// pass fills a table that holds no row of any store yet: keeping nine
// indexes of submissions up to date row by row was some 37% of the
// server's work of a first sync of 100,000 rows, and building them at the
// end, each from one sorted scan, costs a fraction of that.
//
// The table is shared by every store, and the writer is not its owner
// (docs/team-mirror.md: only the owner may drop or make an index), so two
// functions run with the owner's rights (SECURITY DEFINER) for a caller
// who may write the table:
//   - storectl.defer_indexes(tbl) drops the table's indexes that are
//     neither unique nor its key, keeping their definitions in
//     storectl_private.deferred_indexes and a mark in bulk_deferred (kind
//     'index', the caller's store), only when the table
//     is empty for every store: under a lock that waits a second at most
//     for readers (then nothing is deferred) and keeps any other writer
//     out until it commits. Rows another store writes meanwhile are stored
//     and found as ever (every dropped index was only a faster way to the
//     same rows), only more slowly;
//   - storectl.restore_indexes(tbl) makes again every index of the table
//     any store deferred (IF NOT EXISTS: one made by another's pass is
//     kept), in the caller's transaction: the one that ends a pass, or,
//     for the pass that deferred them, one of its own beside it
//     (buildIndexesAside), which the pass's end waits for. The caller
//     deletes its own store's rows of bulk_deferred.
//
// The definitions a function of the owner runs are kept where only the
// owner writes: storectl_private, a schema no role is granted (the
// writer may write every table of storectl, bulk_deferred too, and the
// owner's function would otherwise run whatever a writer put there).
//
// A pass killed meanwhile keeps its indexes deferred until a pass of the
// table ends (its take-over, or any store's next pass: every pass's end
// calls restore_indexes).
const pgVersion17 = `
CREATE SCHEMA storectl_private;
CREATE TABLE storectl_private.deferred_indexes (
	tbl  text NOT NULL,
	name text NOT NULL,
	def  text NOT NULL,
	PRIMARY KEY (tbl, name)
);

CREATE FUNCTION storectl.defer_indexes(tbl text) RETURNS void LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	rel regclass := to_regclass('storectl.' || quote_ident(tbl));
	s text := current_setting('storectl.store', true);
	filled boolean;
	ix record;
BEGIN
	IF rel IS NULL OR s IS NULL OR NOT has_table_privilege(session_user, rel, 'INSERT') THEN
		RETURN;
	END IF;
	PERFORM set_config('lock_timeout', '1s', true);
	BEGIN
		EXECUTE format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', rel);
	EXCEPTION WHEN lock_not_available THEN
		RETURN;
	END;
	EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s)', rel) INTO filled;
	IF filled THEN
		RETURN;
	END IF;
	FOR ix IN SELECT c.relname, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
		WHERE i.indrelid = rel AND NOT i.indisunique AND NOT i.indisprimary ORDER BY c.relname
	LOOP
		INSERT INTO storectl_private.deferred_indexes (tbl, name, def) VALUES (tbl, ix.relname, ix.def)
			ON CONFLICT DO NOTHING;
		INSERT INTO storectl.bulk_deferred (store, tbl, kind, name, sql) VALUES (s, tbl, 'index', ix.relname, ix.def)
			ON CONFLICT DO NOTHING;
		EXECUTE format('DROP INDEX storectl.%I', ix.relname);
	END LOOP;
END $$;

CREATE FUNCTION storectl.restore_indexes(tbl text) RETURNS void LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	rel regclass := to_regclass('storectl.' || quote_ident(tbl));
	def text;
BEGIN
	IF rel IS NULL OR NOT has_table_privilege(session_user, rel, 'INSERT') THEN
		RETURN;
	END IF;
	FOR def IN SELECT d.def FROM storectl_private.deferred_indexes d WHERE d.tbl = restore_indexes.tbl ORDER BY d.name
	LOOP
		EXECUTE regexp_replace(def, '^CREATE INDEX ', 'CREATE INDEX IF NOT EXISTS ');
	END LOOP;
	DELETE FROM storectl_private.deferred_indexes d WHERE d.tbl = restore_indexes.tbl;
END $$;
`
