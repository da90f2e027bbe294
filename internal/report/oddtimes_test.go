package report

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/mirror/postgres"
	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
	"github.com/storectl/storectl/internal/mirror/postgres/pgurl"
	"github.com/storectl/storectl/internal/mirror/sqlite"
	"github.com/storectl/storectl/internal/sandbox"
)

// A created_at not of the API's form (here "soon", and a time without its
// minutes) has no period to count in: the report leaves it out of the
// periods on both backends alike, where PostgreSQL's cast of its minutes
// to a number once stopped the whole report.
func TestReportOfTimesNotOfTheAPIsForm(t *testing.T) {
	ctx := context.Background()
	store := sandbox.NewMemoryStore(sandbox.DemoStateWithSubmissions(120))
	tg, err := pgurl.Parse(pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	// A submission's list item and detail alike, by its id.
	created := regexp.MustCompile(`"id":(\d+),(.*?)"created_at":"[^"]*"`)
	odd := func(body []byte) []byte {
		return created.ReplaceAllFunc(body, func(m []byte) []byte {
			sub := created.FindSubmatch(m)
			id, _ := strconv.Atoi(string(sub[1]))
			switch {
			case id%7 == 0:
				return fmt.Appendf(nil, `"id":%s,%s"created_at":"soon"`, sub[1], sub[2])
			case id%11 == 0:
				return fmt.Appendf(nil, `"id":%s,%s"created_at":"2026-11-03T14:xx"`, sub[1], sub[2])
			}
			return m
		})
	}
	lite := hostileMirror(t, store, sqlite.At(filepath.Join(t.TempDir(), "m.db")), odd)
	pg := hostileMirror(t, store, postgres.At(tg), odd)
	opts := Options{Now: demoNow, Loc: time.UTC, Since: demoNow.AddDate(0, -3, 0)}
	want, err := Build(ctx, lite, opts)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Build(ctx, pg, opts)
	if err != nil {
		t.Fatalf("the report on PostgreSQL: %v", err)
	}
	var oddRows int
	if err := pg.Pool().QueryRowContext(ctx, "SELECT count(*) FROM submissions WHERE created_at IN ('soon', '2026-11-03T14:xx')").Scan(&oddRows); err != nil || oddRows == 0 {
		t.Fatalf("the mirror holds %d rows of times not of the API's form (%v)", oddRows, err)
	}
	signups := 0
	for _, p := range want.Periods {
		signups += p.Signups
	}
	if signups == 0 {
		t.Fatal("SQLite's report counts no signup in its periods")
	}
	w, _ := json.Marshal(want)
	g, _ := json.Marshal(got)
	if string(w) != string(g) {
		t.Errorf("PostgreSQL's report\n%s\nSQLite's\n%s", g, w)
	}
}
