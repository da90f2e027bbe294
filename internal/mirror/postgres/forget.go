package postgres

// pgForgetStore is migration 24. Deleting a store's row from
// storectl.stores (docs/team-mirror.md) deletes its rows through the
// foreign keys' cascades, and each submission's delete ran the tallies'
// row triggers, which counted it out of a tally of a store no longer
// there: the insert of that count broke demand_tally's foreign key, and
// the delete failed. A store without its row in storectl.stores has no
// tallies kept row by row, as one whose first pass defers them: its
// counts go with it.
const pgForgetStore = `
CREATE OR REPLACE FUNCTION storectl.tallies_deferred(s text) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
	RETURN EXISTS (SELECT 1 FROM storectl.bulk_deferred b WHERE b.store = s AND b.tbl = 'submissions' AND b.kind = 'recount')
		OR NOT EXISTS (SELECT 1 FROM storectl.stores k WHERE k.store = s);
END $$;
`
