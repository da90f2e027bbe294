package mirror

import (
	"context"
	"database/sql"
)

// Querier runs reading SQL against the mirror (see Read).
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Read runs fn in one read transaction on a connection that cannot write
// (PRAGMA query_only, whatever mode the mirror was opened in): every query
// fn makes sees the same snapshot, and none can change the mirror. The
// answers of a report are computed so, by the report package's own SQL.
func (db *DB) Read(ctx context.Context, fn func(q Querier) error) (err error) {
	defer db.explain(&err)
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if !db.readOnly {
		if _, err := conn.ExecContext(ctx, "PRAGMA query_only = 1"); err != nil {
			return err
		}
		// The connection goes back to the writer's pool either way.
		defer func() { _, _ = conn.ExecContext(context.Background(), "PRAGMA query_only = 0") }()
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return cancelled(ctx, fn(tx))
}
