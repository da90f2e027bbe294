package mirror

import (
	report "github.com/storectl/storectl/internal/report/schema"
	watch "github.com/storectl/storectl/internal/watch/schema"
)

// The mirror's tests make the schema storectl makes: the features register
// their parts (internal/report, internal/watch), whose SQL is a package of
// each feature's own that imports nothing of the engine's, so these tests
// register the parts too (without the features' hooks: refresh_test and
// sync_test register hooks of their own) and check the report's triggers
// and the refill of a first pass against the rows.
func init() {
	Register(&Feature{Name: report.Name, Schema: report.Migrations, Refill: report.Refill, RefillTable: report.RefillTable})
	Register(&Feature{Name: watch.Name, Schema: watch.Migrations, Copied: watch.Copied, Unrecoverable: watch.Unrecoverable})
}
