package mirror

// pgVersion15 makes storectl.tallies_deferred PL/pgSQL, whose statement
// PostgreSQL plans once per connection: as an SQL function it was not
// inlined (its EXISTS) and so was planned and started anew within every
// statement that called it, the statement trigger of each page's INSERT
// calling it once per row. A first sync of 100,000 rows spent some 8% of
// the server's work there (perf), about a second.
const pgVersion15 = `
CREATE OR REPLACE FUNCTION storectl.tallies_deferred(s text) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
	RETURN EXISTS (SELECT 1 FROM storectl.bulk_deferred b WHERE b.store = s AND b.tbl = 'submissions' AND b.kind = 'recount');
END $$;
`
