package schema

// postgresWait is the part's fifth PostgreSQL migration: its statement
// triggers are not called for a page whose store's tallies wait for its
// first pass to end (storectl.tallies_wait, the mirror's migration 26),
// as the mirror's own are not.
const postgresWait = `
DROP TRIGGER submissions_report_joined ON storectl.submissions;
CREATE TRIGGER submissions_report_joined AFTER INSERT ON storectl.submissions
	REFERENCING NEW TABLE AS joined FOR EACH STATEMENT WHEN (NOT storectl.tallies_wait())
	EXECUTE FUNCTION storectl.submissions_report_joined();
DROP TRIGGER submissions_report_total_joined ON storectl.submissions;
CREATE TRIGGER submissions_report_total_joined AFTER INSERT ON storectl.submissions
	REFERENCING NEW TABLE AS joined FOR EACH STATEMENT WHEN (NOT storectl.tallies_wait())
	EXECUTE FUNCTION storectl.submissions_report_total_joined();
`
