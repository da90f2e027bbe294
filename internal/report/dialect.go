package report

import (
	"strconv"

	"github.com/storectl/storectl/internal/mirror"
)

// The report's SQL is its own (it owns its tally), written once for each
// backend's dialect: the spellings below are what differs, chosen by the
// mirror's Dialect; the queries around them are the same text. No
// statement is rewritten on its way to the database.

// spelling is the report's SQL in one dialect.
type spelling struct {
	// param is the query's nth parameter.
	param func(n int) string
	// yes and no are a condition always true and always false.
	yes, no string
	// indexed asks for the index of that name where the planner would
	// not choose it ("" where it does).
	indexed func(index string) string
	// quarter is a row's quarter hour of created_at, as the tally keeps
	// it; engaged says an opened or clicked value is one (not the API's
	// 0); sameSKU compares a SKU with a parameter in any ASCII case.
	quarter string
	engaged func(col string) string
	sameSKU func(p string) string
	// idsIn is a row's id among the JSON array of ids p.
	idsIn func(p string) string
}

var spellings = map[mirror.Dialect]*spelling{
	mirror.SQLite: {
		param:   func(n int) string { return "?" + strconv.Itoa(n) },
		yes:     "1",
		no:      "0",
		indexed: func(index string) string { return " INDEXED BY " + index },
		quarter: `CASE WHEN created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
		THEN substr(created_at, 1, 14) || printf('%02d', CAST(substr(created_at, 15, 2) AS INTEGER) / 15 * 15)
		ELSE created_at END`,
		engaged: func(col string) string { return "(" + col + " IS NOT NULL AND " + col + " NOT IN (0, '0', ''))" },
		sameSKU: func(p string) string { return "sku = " + p + " COLLATE NOCASE" },
		idsIn:   func(p string) string { return "id IN (SELECT value FROM json_each(" + p + "))" },
	},
	mirror.Postgres: {
		param:   func(n int) string { return "$" + strconv.Itoa(n) },
		yes:     "true",
		no:      "false",
		indexed: func(string) string { return "" },
		quarter: "storectl.report_quarter(created_at)",
		engaged: func(col string) string { return "storectl.report_engaged(" + col + ")" },
		sameSKU: func(p string) string { return "storectl.fold_case(sku) = storectl.fold_case(" + p + ")" },
		idsIn: func(p string) string {
			return "id = ANY (ARRAY(SELECT e::bigint FROM jsonb_array_elements_text(" + p + "::jsonb) AS t(e)))"
		},
	},
}

// query is one statement of the report being built: its parameters,
// named, numbered in the order first used, in the dialect's words.
type query struct {
	sp    *spelling
	names []string
	args  []any
}

// arg is the parameter name (the same each time it is named) with value
// v.
func (q *query) arg(name string, v any) string {
	for i, n := range q.names {
		if n == name {
			return q.sp.param(i + 1)
		}
	}
	q.names, q.args = append(q.names, name), append(q.args, v)
	return q.sp.param(len(q.names))
}
