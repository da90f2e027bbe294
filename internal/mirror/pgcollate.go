package mirror

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/storectl/storectl/internal/exitcode"
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

// CollationError is a database whose default collation does not sort text
// byte by byte, refused before storectl creates its schema there.
type CollationError struct {
	Target string
	Sorts  string // how it sorts: "the collation 'en_US.UTF-8'", "an ICU collation"
}

func (e *CollationError) Error() string {
	return fmt.Sprintf("the PostgreSQL database at %s sorts text by %s, and the mirror compares times as text byte by byte as SQLite does: "+
		"create its database with CREATE DATABASE … LOCALE 'C.UTF-8' TEMPLATE template0 (docs/team-mirror.md), then run this again", e.Target, e.Sorts)
}

// ExitCode: nothing was written or sent; the database is the user's to
// make.
func (e *CollationError) ExitCode() int { return exitcode.Usage }

// refuseTextOrder refuses a database that does not sort text byte by byte.
func refuseTextOrder(ctx context.Context, tx pgx.Tx, display string) error {
	var bytewise bool
	var sorts string
	if err := tx.QueryRow(ctx, textOrder).Scan(&bytewise, &sorts); err != nil || bytewise {
		return err
	}
	return &CollationError{Target: display, Sorts: sorts}
}
