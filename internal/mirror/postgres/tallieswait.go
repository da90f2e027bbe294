package postgres

// pgTalliesWait is migration 26. A first pass defers its store's tallies
// (bulk.go), yet each page's INSERT still called every statement trigger
// of submissions (the mirror's tallies', the report's two), each of which
// asked whether the store's tallies wait and found they did: about a
// twentieth of a first sync. A page of such a pass now says so for its
// own transaction (storectl.tallies_wait, set by the writer: page.go), and
// the triggers that count what it writes are then not called at all;
// without the setting (any other writer, any other transaction) each asks
// as before. The setting is the writer's word for its own store, as every
// row it writes is: a writer could as well write the tallies themselves.
const pgTalliesWait = `
CREATE FUNCTION storectl.tallies_wait() RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE
	RETURN current_setting('storectl.tallies_wait', true) IS NOT DISTINCT FROM 'on';

DROP TRIGGER submissions_joined ON storectl.submissions;
CREATE TRIGGER submissions_joined AFTER INSERT ON storectl.submissions
	REFERENCING NEW TABLE AS joined FOR EACH STATEMENT WHEN (NOT storectl.tallies_wait())
	EXECUTE FUNCTION storectl.submissions_joined();
`
