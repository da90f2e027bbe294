// Command storectl manages Back In Stock, Pre-order, Coming soon and catalog
// search for an online store.
package main

import (
	"os"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/root"
)

// Set by ldflags at release time.
var (
	version = "dev"
	commit  = "none"
	date    = "unknown"
)

func main() {
	os.Exit(root.Main(cmdutil.BuildInfo{Version: version, Commit: commit, Date: date}))
}
