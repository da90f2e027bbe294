package mirror

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/report/schema"
)

// reportTallyMismatch compares report_tally with the counts made afresh
// from the rows (the refill a first pass's end runs: SQLite's
// schema.FillSQLite, PostgreSQL's storectl.count_report_tally's query).
func reportTallyMismatch(t *testing.T, db *sql.DB) string {
	t.Helper()
	fresh := schema.FillSQLite[strings.Index(schema.FillSQLite, "SELECT"):] + " ORDER BY 1, 2, 3, 4, 5, 6"
	if onPostgres {
		fresh = `SELECT product_id, variant_id, sku, coalesce(CASE WHEN detail_fetched_at IS NOT NULL THEN locale END, ''), status,
			storectl.report_quarter(created_at), count(*),
			count(*) FILTER (WHERE detail_fetched_at IS NOT NULL),
			count(*) FILTER (WHERE detail_fetched_at IS NOT NULL AND storectl.report_engaged(opened)),
			count(*) FILTER (WHERE detail_fetched_at IS NOT NULL AND storectl.report_engaged(clicked)),
			count(*) FILTER (WHERE detail_fetched_at IS NOT NULL AND unsubscribe = 1), min(created_at)
			FROM submissions WHERE gone_at IS NULL GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`
	}
	const kept = `SELECT product_id, variant_id, sku, locale, status, quarter, n, detailed, opened, clicked, unsubscribed, oldest
		FROM report_tally ORDER BY 1, 2, 3, 4, 5, 6`
	if a, b := dump(t, db, fresh), dump(t, db, kept); a != b {
		return fmt.Sprintf("from the rows:\n%s\nreport_tally:\n%s", a, b)
	}
	return reportTotalsMismatch(t, db)
}

// reportTotalsMismatch compares report_total, report_quarters and
// report_days with what the rows say.
func reportTotalsMismatch(t *testing.T, db *sql.DB) string {
	t.Helper()
	locale, quarter := "coalesce(CASE WHEN detail_fetched_at IS NOT NULL THEN locale END, '')", "storectl.report_quarter(created_at)"
	counts := `count(*), count(*) FILTER (WHERE detail_fetched_at IS NOT NULL),
		count(*) FILTER (WHERE detail_fetched_at IS NOT NULL AND storectl.report_engaged(opened)),
		count(*) FILTER (WHERE detail_fetched_at IS NOT NULL AND storectl.report_engaged(clicked)),
		count(*) FILTER (WHERE detail_fetched_at IS NOT NULL AND unsubscribe = 1), min(created_at)`
	if !onPostgres {
		quarter = `CASE WHEN created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
			THEN substr(created_at, 1, 14) || printf('%02d', CAST(substr(created_at, 15, 2) AS INTEGER) / 15 * 15) ELSE created_at END`
		counts = `count(*), sum(detail_fetched_at IS NOT NULL), sum(detail_fetched_at IS NOT NULL AND opened IS NOT NULL AND opened NOT IN (0, '0', '')),
			sum(detail_fetched_at IS NOT NULL AND clicked IS NOT NULL AND clicked NOT IN (0, '0', '')),
			sum(detail_fetched_at IS NOT NULL AND unsubscribe IS 1), min(created_at)`
	}
	for _, c := range []struct{ name, fresh, kept string }{
		{"report_total", `SELECT product_id, variant_id, sku, ` + locale + `, status, ` + counts + ` FROM submissions
			WHERE gone_at IS NULL AND created_at >= '' AND created_at < '9999' GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`,
			`SELECT product_id, variant_id, sku, locale, status, n, detailed, opened, clicked, unsubscribed, oldest FROM report_total ORDER BY 1, 2, 3, 4, 5`},
		{"report_quarters", `SELECT ` + quarter + `, status, count(*) FROM submissions WHERE gone_at IS NULL GROUP BY 1, 2 ORDER BY 1, 2`,
			`SELECT quarter, status, n FROM report_quarters ORDER BY 1, 2`},
		{"report_days", `SELECT substr(created_at, 1, 10), product_id, variant_id, count(*) FROM submissions WHERE gone_at IS NULL
			GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`, `SELECT day, product_id, variant_id, n FROM report_days ORDER BY 1, 2, 3`},
	} {
		if a, b := dump(t, db, c.fresh), dump(t, db, c.kept); a != b {
			return fmt.Sprintf("from the rows:\n%s\n%s:\n%s", a, c.name, b)
		}
	}
	return ""
}

// report_tally stays what the rows say through any mix of writes: rows
// inserted (created_at of the API's form, in any quarter, or not of it),
// sent and back, their detail stored or changed (locale, opened, clicked,
// unsubscribe), moved to another product, variant or SKU, re-dated, gone,
// back, deleted.
func TestReportTallyKeptExactByItsTriggers(t *testing.T) {
	w := newWorld(t, 0)
	db := w.db.sql()
	r := rand.New(rand.NewPCG(24, 9))
	pick := func(vals ...string) string { return vals[r.IntN(len(vals))] }
	date := func() string {
		if r.IntN(10) == 0 {
			return pick("NULL", "''", "'soon'", "'2026-01-01T10:2'", "'2026-01-01T10:15'")
		}
		return fmt.Sprintf("'2026-01-0%dT1%d:%02d:%02dZ'", 1+r.IntN(2), r.IntN(2), []int{0, 14, 15, 29, 30, 44, 45, 59}[r.IntN(8)], r.IntN(60))
	}
	engaged := func() string { return pick("NULL", "0", "'0'", "''", "'2026-01-03 10:00:00'") }
	var nextID int64
	row := func() int64 { return 1 + r.Int64N(nextID) }
	ops := []func() string{
		func() string { // up to 4 rows in one statement, as a page's are, some with their detail
			var rows []string
			var vals string
			for k := range 1 + r.IntN(4) {
				if k == 0 || r.IntN(2) == 0 { // else the row counts where the one before does
					vals = fmt.Sprintf("%d, %d, %d, %s, %s, '{}', 'x', 'x', 'x', %s, %s, %s, %s, %s, %s",
						r.IntN(3), r.IntN(3), r.IntN(3), date(), pick("NULL", "'A'", "'a'"), pick("NULL", "NULL", "'x'"),
						pick("NULL", "'en'", "''"), engaged(), engaged(), pick("NULL", "0", "1"), pick("NULL", "NULL", "NULL", "'x'"))
				}
				nextID++
				rows = append(rows, fmt.Sprintf("(%d, %s)", nextID, vals))
			}
			return `INSERT INTO submissions (id, product_id, variant_id, status, created_at, sku, list_json, list_fetched_at,
				first_seen_at, last_seen_at, detail_fetched_at, locale, opened, clicked, unsubscribe, gone_at) VALUES ` + strings.Join(rows, ", ")
		},
		func() string {
			return fmt.Sprintf(`UPDATE submissions SET detail_fetched_at = %s, locale = %s, opened = %s, clicked = %s, unsubscribe = %s
				WHERE id = %d`, pick("NULL", "'x'", "'y'"), pick("NULL", "'en'", "'fr'", "''"), engaged(), engaged(),
				pick("NULL", "0", "1"), row())
		},
		func() string {
			return fmt.Sprintf("UPDATE submissions SET opened = %s WHERE id = %d", engaged(), row())
		},
		func() string { return fmt.Sprintf("UPDATE submissions SET status = 1 - status WHERE id = %d", row()) },
		func() string {
			return fmt.Sprintf("UPDATE submissions SET sku = %s WHERE id = %d", pick("NULL", "'A'", "'B'"), row())
		},
		func() string {
			return fmt.Sprintf("UPDATE submissions SET product_id = %d, variant_id = %d WHERE id = %d", r.IntN(3), r.IntN(3), row())
		},
		func() string {
			return fmt.Sprintf("UPDATE submissions SET created_at = %s WHERE id = %d", date(), row())
		},
		func() string { return fmt.Sprintf("UPDATE submissions SET gone_at = 'x' WHERE id = %d", row()) },
		func() string { return fmt.Sprintf("UPDATE submissions SET gone_at = NULL WHERE id = %d", row()) },
		func() string { return fmt.Sprintf("DELETE FROM submissions WHERE id = %d", row()) },
	}
	for i := range 1500 {
		op := 0
		if i > 60 {
			op = r.IntN(len(ops))
		}
		q := ops[op]()
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
		if m := reportTallyMismatch(t, db); m != "" {
			t.Fatalf("after write %d (%s):\n%s", i, q, m)
		}
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM report_tally WHERE opened > 0 AND oldest IS NOT NULL").Scan(&n); err != nil || n == 0 {
		t.Fatalf("the writes never made an opened row count (%d, %v): the test would not see their triggers fail", n, err)
	}
}
