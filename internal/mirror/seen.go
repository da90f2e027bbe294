package mirror

import (
	"context"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/storectl/storectl/internal/ids"
)

// A pass is the walk's set of ids given (shop.Seen), kept in the mirror
// with the rows rather than in memory: a row a sync pass met has seen_by =
// the pass; a row an export recorded is in export_rows. The question comes
// once a page, with the page's ids, and the same lookup tells storePage
// what the mirror holds of each row (known). Only the rows whose id is not
// a 64-bit integer, rare, are remembered in memory (oddGiven).

// Given reports which of a page's ids the pass gave already, and keeps
// what the mirror holds of them for storePage.
func (p *pass) Given(ctx context.Context, pageIDs []string) (map[string]bool, error) {
	given := map[string]bool{}
	var nums []int64
	for _, id := range pageIDs {
		if _, ok := ids.Normalize(id); !ok {
			if p.oddGiven[id] {
				given[id] = true
			}
			continue
		}
		n, err := rowID(id)
		if err != nil {
			return nil, err
		}
		nums = append(nums, n)
	}
	p.known = map[int64]held{}
	seen, err := p.lookup(ctx, nums)
	for _, n := range seen {
		given[strconv.FormatInt(n, 10)] = true
	}
	return given, err
}

// Add counts the rows about to be given: storePage records them.
func (p *pass) Add(given []string) {
	p.given += len(given)
	for _, id := range given {
		if _, ok := ids.Normalize(id); !ok {
			if p.oddGiven == nil {
				p.oddGiven = map[string]bool{}
			}
			p.oddGiven[id] = true
		}
	}
}

// Len is how many rows the pass has given, over all its runs.
func (p *pass) Len() int { return p.given }

// lookup reads what the mirror holds of the rows nums into p.known, and
// returns those the pass gave already.
func (p *pass) lookup(ctx context.Context, nums []int64) (seen []int64, err error) {
	p.watchesKnown = false // the count read with a lookup is the next page's only
	if len(nums) == 0 {
		return nil, nil
	}
	q := p.res.sql().seenSync
	if p.purpose == purposeExport {
		q = p.res.sql().seenExport
	}
	if p.known == nil {
		p.known = map[int64]held{}
	}
	// A row the mirror does not hold is known too, as new: storePage then
	// asks no second time (every row of a first sync is new).
	for _, n := range nums {
		p.known[n] = held{}
	}
	if p.db.pg != nil {
		return p.lookupPG(ctx, q, nums)
	}
	st, err := p.db.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(p.db.pageContext(ctx), idListArg(nums), p.id) // a page's ids: storePage checks the stop
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return p.hold(rows)
}

// lookupPG is lookup on PostgreSQL, where the count of the list's watches
// comes in the same round trip, for the page's transaction (pgpage.go).
func (p *pass) lookupPG(ctx context.Context, q string, nums []int64) (seen []int64, err error) {
	look, err := pgStatementOf(pgLookup(q, p.res.name), []any{idListArg(nums), p.id})
	if err != nil {
		return nil, err
	}
	watch, err := pgStatementOf(watchedSQL, []any{p.res.name})
	if err != nil {
		return nil, err
	}
	c, err := p.db.sql.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	err = c.Raw(func(dc any) error {
		var b pgx.Batch
		b.Queue(look.text, look.args...)
		b.Queue(watch.text, watch.args...)
		br := dc.(*rebindConn).Conn.Conn().SendBatch(ctx, &b)
		defer br.Close()
		rows, err := br.Query()
		if err != nil {
			return err
		}
		seen, err = p.hold(rows)
		rows.Close()
		if err != nil {
			return err
		}
		if err := br.QueryRow().Scan(&p.watches); err != nil {
			return err
		}
		p.watchesKnown = true
		return br.Close()
	})
	return seen, err
}

// pgLookup turns a lookup of the ids in ?1 (rowsql.go) into one that
// finds each wanted id on its own through the table's primary key (store,
// id): LATERAL … LIMIT 1, rather than the table's rows whose id is among
// the wanted, which PostgreSQL planned, whenever the table's statistics
// said it was nearly empty (a first sync grows it from nothing; the ids
// are a subquery's, unknown to the plan), as a scan of all the store's
// rows with the ids as a filter: once a first pass into an empty table
// left the key the table's only index (bulk.go), that plan was the
// one chosen, page after page, until autovacuum's statistics came.
func pgLookup(q, table string) string {
	return strings.Replace(q, "FROM "+table+" WHERE id IN "+idList("?1"),
		"FROM (SELECT DISTINCT e::bigint AS want FROM jsonb_array_elements_text(CAST(?1 AS text)::jsonb) AS t(e)) wanted"+
			" CROSS JOIN LATERAL (SELECT * FROM "+table+" WHERE id = wanted.want LIMIT 1) "+table, 1)
}

// hold keeps the rows of a lookup's answer in p.known, and returns those
// the pass gave already.
func (p *pass) hold(rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}) (seen []int64, err error) {
	for rows.Next() {
		var id int64
		h := held{exists: true}
		if err := rows.Scan(&id, &h.list, &h.gone, &h.seen); err != nil {
			return nil, err
		}
		p.known[id] = h
		if h.seen {
			seen = append(seen, id)
		}
	}
	return seen, rows.Err()
}

// countGiven finds, for a continued pass, how many rows its earlier runs
// gave, and the odd ones among them.
func (p *pass) countGiven(ctx context.Context) error {
	if p.purpose == purposeExport {
		// Odd rows are not recorded in export_rows: a resumed export
		// gives them again (docs/mirror.md, odd_rows).
		return p.db.sql.QueryRowContext(ctx, "SELECT count(*) FROM export_rows WHERE pass_id = ?", p.id).Scan(&p.given)
	}
	if err := p.db.sql.QueryRowContext(ctx, "SELECT count(*) FROM "+p.res.name+" WHERE seen_by = ?", p.id).Scan(&p.given); err != nil {
		return err
	}
	rows, err := p.db.sql.QueryContext(ctx, "SELECT id FROM odd_rows WHERE resource = ? AND seen_by = ?", p.res.name, p.id)
	if err != nil {
		return err
	}
	defer rows.Close()
	p.oddGiven = map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		p.oddGiven[id] = true
		p.given++
	}
	return rows.Err()
}
