package mirror

import (
	"context"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// Querier runs reading SQL against the mirror (see Read).
type Querier = backend.Querier

// Read runs fn in one read transaction on a connection that cannot write,
// whatever mode the mirror was opened in: every query fn makes sees the
// same snapshot, and none can change the mirror. The answers of a report
// are computed so, by the report package's own SQL (in the backend's
// dialect: Dialect).
func (db *DB) Read(ctx context.Context, fn func(q Querier) error) (err error) {
	defer db.explain(&err)
	return cancelled(ctx, db.conn.Read(ctx, fn))
}
