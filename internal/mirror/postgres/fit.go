package postgres

import (
	"context"
	"math"
	"strconv"

	"github.com/jackc/pgx/v5"
)

// A SQLite column keeps any value whatever its declared type; a
// PostgreSQL column refuses one that is not of its type, and with it the
// row and the page's transaction. A hostile or broken server sending
// "status": "sent" or "product_id": "n/a" must not stop the sync there: on
// PostgreSQL a value that does not fit its numeric column is stored as
// NULL in that column, and the row's JSON as sent (list_json, detail_json)
// keeps it.

// numericColumns reads the numeric columns of the storectl schema:
// table → column → type (integer, bigint, numeric).
func numericColumns(ctx context.Context, conn *pgx.Conn) (map[string]map[string]string, error) {
	rows, err := conn.Query(ctx, `SELECT table_name, column_name, data_type FROM information_schema.columns
		WHERE table_schema = 'storectl' AND data_type IN ('integer', 'bigint', 'numeric')`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	types := map[string]map[string]string{}
	for rows.Next() {
		var table, col, typ string
		if err := rows.Scan(&table, &col, &typ); err != nil {
			return nil, err
		}
		if types[table] == nil {
			types[table] = map[string]string{}
		}
		types[table][col] = typ
	}
	return types, rows.Err()
}

// Fit sets to NULL each value of cols that does not fit its numeric
// column of table.
func (c *conn) Fit(table string, cols []string, vals []any) {
	types := c.types[table]
	for i, col := range cols {
		if typ, ok := types[col]; ok && !fitsNumeric(vals[i], typ) {
			vals[i] = nil
		}
	}
}

// fitsNumeric says whether PostgreSQL reads v (as columnValues gives it,
// sent as text) as a value of the numeric type typ.
func fitsNumeric(v any, typ string) bool {
	switch x := v.(type) {
	case nil:
		return true
	case int:
		return fitsInt(int64(x), typ)
	case int64:
		return fitsInt(x, typ)
	case float64:
		return typ == "numeric" || x == math.Trunc(x) && math.Abs(x) < 1<<63 && fitsInt(int64(x), typ)
	case string:
		if n, err := strconv.ParseInt(x, 10, 64); err == nil {
			return fitsInt(n, typ)
		}
		_, err := strconv.ParseFloat(x, 64)
		return typ == "numeric" && (err == nil || isRangeError(err))
	}
	return false
}

func fitsInt(n int64, typ string) bool {
	return typ != "integer" || n >= math.MinInt32 && n <= math.MaxInt32
}

// isRangeError: a decimal number too large for a float64 is still one
// numeric holds.
func isRangeError(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
