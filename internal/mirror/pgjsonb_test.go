package mirror

import (
	"sync/atomic"
	"testing"
)

// A page's INSERT gives each row's list_jsonb itself (migration 23): the
// trigger's PL/pgSQL function is not called for the mirror's own rows,
// which hold the same jsonb as storectl.storable_json gives, U+FFFD for
// the escapes jsonb refuses; a row another client inserts without it, and
// a row whose text an UPDATE changes, still get theirs from the trigger.
func TestPostgresPageGivesItsJSONB(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only (TestSuiteOnPostgres runs it)")
	}
	w := newWorld(t, 40)
	var answers atomic.Int64
	w.after = func(body []byte) []byte { // every other answer hostile: pages of both kinds
		if answers.Add(1)%2 == 0 {
			return withHostileText(body)
		}
		return body
	}
	pgExec(t, w.pg, `INSERT INTO storectl.submissions (store, id, list_json, list_fetched_at, first_seen_at, last_seen_at)
		VALUES ('https://sandbox.test', -1, '{"id":-1,"note":"\u0000"}', 'x', 'x', 'x')`)
	if n := w.count(`SELECT count(*) FROM storectl.submissions WHERE id = -1 AND list_jsonb->>'note' = E'\uFFFD'`); n != 1 {
		t.Fatalf("a row inserted without its jsonb got none from the trigger")
	}
	pgExec(t, w.pg, "DELETE FROM storectl.submissions WHERE id = -1")

	// Were the trigger's function called for a row of a page, the page
	// would fail.
	pgExec(t, w.pg, `CREATE OR REPLACE FUNCTION storectl.fill_list_jsonb() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		IF TG_OP = 'INSERT' THEN
			RAISE EXCEPTION 'list_jsonb of a row of % filled row by row', TG_TABLE_NAME;
		END IF;
		NEW.list_jsonb := storectl.storable_json(NEW.list_json);
		RETURN NEW;
	END $$`)
	w.sync(SyncOptions{Full: true, Details: true}, "bis", "preorder", "comingsoon")
	for _, table := range []string{"submissions", "offers", "priority_rows", "rules"} {
		if n := w.count("SELECT count(*) FROM storectl." + table + " WHERE list_jsonb IS DISTINCT FROM storectl.storable_json(list_json)"); n != 0 {
			t.Errorf("%s: %d rows whose list_jsonb is not storable_json(list_json)", table, n)
		}
	}
	hostile, plain := w.count(`SELECT count(*) FROM storectl.submissions WHERE strpos(list_json, '\u0000') > 0`),
		w.count(`SELECT count(*) FROM storectl.submissions WHERE strpos(list_json, '\u') = 0`)
	if hostile == 0 || plain == 0 {
		t.Fatalf("%d hostile rows, %d plain: want both", hostile, plain)
	}
	if n := w.count(`SELECT count(*) FROM storectl.submissions WHERE strpos(list_json, '\u0000') > 0
		AND list_jsonb->>'customer_email' LIKE E'\uFFFD%'`); n != hostile {
		t.Errorf("%d of %d hostile rows' jsonb hold U+FFFD", n, hostile)
	}

	pgExec(t, w.pg, `UPDATE storectl.submissions SET list_json = '{"note":"\ud800"}' WHERE id = (SELECT min(id) FROM storectl.submissions)`)
	if n := w.count(`SELECT count(*) FROM storectl.submissions WHERE list_jsonb = '{"note":"\uFFFD"}'::jsonb`); n != 1 {
		t.Errorf("an UPDATE of the text left its jsonb as it was")
	}
}
