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

	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/mirror/postgres"
	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
	"github.com/storectl/storectl/internal/mirror/postgres/pgurl"
	"github.com/storectl/storectl/internal/mirror/sqlite"
	"github.com/storectl/storectl/internal/sandbox"
)

// A range counts its whole months from report_months (tally.go's
// rangeSource) and the rest from report_tally and the rows: the same
// report as one read by quarters alone. Here rows stand at a month's
// first minutes (inside the first quarter a range from that month's start
// cuts), just before a month, at a range's end, at day "00" of October,
// which sorts before October's first second (October then counts by
// quarters, November as a whole month), and at times not of the API's
// form, each its own month.
func TestRangeOfWholeMonthsEqualsQuarters(t *testing.T) {
	tg, err := pgurl.Parse(pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	created := regexp.MustCompile(`"id":(\d+),(.*?)"created_at":"[^"]*"`)
	at := map[int]string{
		0: "2026-11-01T00:05:00.000000Z",
		1: "2026-10-00T12:00:00.000000Z",
		2: "2026-10-31T23:59:59.000000Z",
		3: "2026-12-01T00:00:00.000000Z",
		4: "2026-10-01T00:00:00.000000Z",
		5: "2026-11-30T23:50:00.000000Z",
		6: "2026-11x",
		7: "2026-10",
	}
	placed := func(body []byte) []byte {
		return created.ReplaceAllFunc(body, func(m []byte) []byte {
			sub := created.FindSubmatch(m)
			id, _ := strconv.Atoi(string(sub[1]))
			if c, ok := at[id%9]; ok {
				return fmt.Appendf(nil, `"id":%s,%s"created_at":"%s"`, sub[1], sub[2], c)
			}
			return m
		})
	}
	ranges := []Options{
		{Since: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)},
		{Since: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)},
		{Since: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)},
		{Since: time.Date(2026, 9, 15, 6, 0, 0, 0, time.UTC), Until: time.Date(2026, 11, 30, 23, 55, 0, 0, time.UTC)},
		{Until: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)},
		{Since: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), ByVariant: true},
	}
	for name, be := range map[string]mirror.Backend{"sqlite": sqlite.At(filepath.Join(t.TempDir(), "m.db")), "postgres": postgres.At(tg)} {
		t.Run(name, func(t *testing.T) {
			db := hostileMirror(t, sandbox.NewMemoryStore(sandbox.DemoStateWithSubmissions(200)), be, placed)
			ctx := context.Background()
			var months int
			if err := db.Pool().QueryRowContext(ctx, "SELECT count(*) FROM report_months WHERE month = '2026-11'").Scan(&months); err != nil || months == 0 {
				t.Fatalf("report_months holds %d entries of November (%v)", months, err)
			}
			byQuarter := rowTallies[db.Dialect()]
			byQuarter.byMonth = ""
			for _, opts := range ranges {
				opts.Now, opts.Loc = demoNow, time.UTC
				got, err := Build(ctx, db, opts)
				if err != nil {
					t.Fatalf("%+v: %v", opts, err)
				}
				want, err := buildFrom(ctx, db, opts, byQuarter)
				if err != nil {
					t.Fatalf("%+v, by quarters: %v", opts, err)
				}
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				if string(g) != string(w) {
					t.Errorf("%+v: by whole months\n%s\nby quarters\n%s", opts, g, w)
				}
				if got.Summary.Signups == 0 {
					t.Errorf("%+v: no signup in the range compares nothing", opts)
				}
			}
		})
	}
}
