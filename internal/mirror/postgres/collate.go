package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// The mirror keeps the API's times as text (created_at, gone_at, …) and
// compares and sorts them as text: newest first, --since, a group's newest
// and oldest. SQLite compares text byte by byte; PostgreSQL by the
// database's default collation, which with a language's rules (en_US, ICU's)
// puts 'a' before 'B', '-' before '+' (a time's UTC offset) and may skip
// punctuation. So that both backends answer alike, storectl creates its
// schema only in a database whose default collation is byte order: libc's
// C, POSIX or C.UTF-8, or PostgreSQL 17's builtin provider (whose locales
// order by code point, which is UTF-8's byte order).
//
// textOrder reads it: byte order or not, and how the database sorts.
const textOrder = `SELECT datlocprovider = 'b' OR datlocprovider = 'c' AND lower(replace(datcollate, '-', '')) IN ('c', 'posix', 'c.utf8'),
	CASE datlocprovider WHEN 'i' THEN 'an ICU collation' ELSE 'the collation ' || quote_literal(datcollate) END
	FROM pg_database WHERE datname = current_database()`

// refuseTextOrder refuses a database that does not sort text byte by byte.
func refuseTextOrder(ctx context.Context, tx pgx.Tx, display string) error {
	var bytewise bool
	var sorts string
	if err := tx.QueryRow(ctx, textOrder).Scan(&bytewise, &sorts); err != nil || bytewise {
		return err
	}
	return &backend.CollationError{Target: display, Sorts: sorts}
}
