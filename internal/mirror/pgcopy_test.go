package mirror

import (
	"context"
	"errors"
	"testing"

	"github.com/storectl/storectl/internal/mirror/postgres"
	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
)

// mirror copy moves a SQLite mirror into PostgreSQL without a request:
// every row of every table, the JSON byte for byte, the list's order (its
// places renumbered with the journal), an interrupted export's rows; a
// second copy of the same store is refused.
func TestCopyToPostgres(t *testing.T) {
	sqliteOnly(t, "the copy's source is a SQLite mirror (it ran in the run on SQLite)")
	ctx := context.Background()
	w := newWorld(t, 40)
	w.sync(SyncOptions{Details: true}, Groups...)
	// An interrupted export with rows recorded.
	p, err := w.db.startPass(ctx, submissions, Full, purposeExport, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.db.sql().Exec("INSERT INTO export_rows (pass_id, seq, id) SELECT $1, row_number() OVER (ORDER BY id), id FROM submissions LIMIT 5", p.id); err != nil {
		t.Fatal(err)
	}
	w.log.reset()
	tg := pgTarget(t)
	res, err := w.db.CopyTo(ctx, postgres.At(tg), "https://sandbox.test")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(w.log.withPrefix("")); n > 1 {
		t.Errorf("the copy sent %d requests", n)
	}
	conn := pgtest.SQL(t, tg.Config)
	for _, ct := range res.Tables {
		want := w.count("SELECT count(*) FROM " + ct.Table)
		var got int
		q := "SELECT count(*) FROM storectl." + ct.Table + " WHERE store = 'https://sandbox.test'"
		if ct.Table == "export_rows" {
			q = "SELECT count(*) FROM storectl.export_rows"
		}
		if err := conn.QueryRowContext(ctx, q).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want || ct.Rows != want {
			t.Errorf("%s: %d rows in SQLite, %d copied, %d in PostgreSQL", ct.Table, want, ct.Rows, got)
		}
	}
	// The JSON byte for byte, in the list's order.
	rows, err := w.db.sql().Query("SELECT list_json, coalesce(detail_json, '') FROM submissions ORDER BY list_pos DESC, id")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for rows.Next() {
		var l, d string
		if err := rows.Scan(&l, &d); err != nil {
			t.Fatal(err)
		}
		want = append(want, l+d)
	}
	rows.Close()
	pgRows, err := conn.QueryContext(ctx, "SELECT list_json || coalesce(detail_json, '') FROM storectl.submissions ORDER BY list_pos DESC, id")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for pgRows.Next() {
		var r string
		if err := pgRows.Scan(&r); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	pgRows.Close()
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("row %d differs:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
	var orphans int
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM storectl.submissions s WHERE list_pos IS NOT NULL
		AND NOT EXISTS (SELECT 1 FROM storectl.sync_journal j WHERE j.id = s.list_pos >> 32)`).Scan(&orphans); err != nil || orphans != 0 {
		t.Errorf("%d rows placed by a pass that is not in the journal (%v)", orphans, err)
	}
	_, err = w.db.CopyTo(ctx, postgres.At(tg), "https://sandbox.test")
	var filled *NotEmptyError
	if !errors.As(err, &filled) {
		t.Errorf("a second copy: %v", err)
	}
}
