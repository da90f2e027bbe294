package mirror

// pgVersion13 compares bis find's --email and --sku as SQLite's NOCASE
// does, ASCII letters folded and nothing else, through an expression of
// the column instead of an ICU collation: a reader's fresh server process
// spent some 12 ms opening the ICU collator for the first comparison (a
// third of a PostgreSQL answer's own time), and ICU's level-2 equality
// also folded letters SQLite's NOCASE does not (É and é). The rebinding
// (pgconn.go) turns `col = ? COLLATE NOCASE` into
// `storectl.fold_case(col) = storectl.fold_case(?)`; the function is SQL
// the planner inlines, so the indexes below serve it.
const pgVersion13 = `
CREATE FUNCTION storectl.fold_case(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
	RETURN translate(t, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz');
DROP INDEX storectl.submissions_email;
CREATE INDEX submissions_email ON storectl.submissions (store, storectl.fold_case(customer_email), id);
DROP INDEX storectl.submissions_sku;
CREATE INDEX submissions_sku ON storectl.submissions (store, storectl.fold_case(sku));
DROP COLLATION storectl.nocase;
`
