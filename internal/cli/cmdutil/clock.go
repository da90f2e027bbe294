package cmdutil

import "time"

// Clock is what the views of dated data read as now (an offer's or a
// rule's state, the report's range): their Options' Now fields start as
// it. Only the tests of the real binary set it (cmd/storectl's TestMain,
// from STORECTL_TEST_NOW), so that the demo store's fixed dates read the
// same whatever the day the tests run.
var Clock = time.Now
