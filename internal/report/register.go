package report

import (
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/report/schema"
)

// The report owns its tally: every storectl that links the report writes
// its schema part, and counts the tally afresh where a first pass ends.
func init() {
	mirror.Register(&mirror.Feature{Name: schema.Name, Schema: schema.Migrations, Refill: schema.Refill, RefillTable: schema.RefillTable})
}
