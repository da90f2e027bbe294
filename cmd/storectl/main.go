// Command storectl manages Back In Stock, Pre-order, Coming soon and catalog
// search for an online store.
package main

import (
	"os"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/root"
)

// Set by ldflags at release time; a build without them describes itself
// from the toolchain's stamp (cmdutil.NewBuildInfo).
var (
	version string
	commit  string
	date    string
)

func main() {
	os.Exit(root.Main(cmdutil.NewBuildInfo(version, commit, date)))
}
