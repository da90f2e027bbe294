// Package sandbox is `storectl sandbox`: serve the built-in demo store over
// loopback HTTP, or reset its data.
package sandbox

import (
	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
)

// New returns `storectl sandbox` and its verbs.
func New(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.NewGroup("sandbox <command>", "Serve or reset the built-in demo store",
		`The sandbox is a complete implementation of the shop and catalog APIs with
demo data. `+"`--sandbox`"+` runs any command against it in-process; `+"`sandbox serve`"+`
offers it over HTTP on loopback for curl, storefront code and tests. Both keep
their data in the same state file, so changes made one way show the other way.`)
	cmd.AddCommand(newServe(f, nil), newReset(f, nil))
	return cmd
}
