// Package comingsoon is `storectl comingsoon`: create, list, inspect and
// delete coming-soon rules, one at a time or by the hundred.
package comingsoon

import (
	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/manystores"
)

// New returns `storectl comingsoon` and its verbs.
func New(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.NewGroup("comingsoon <command>", "Create, list and delete coming-soon rules",
		`Coming-soon rules mark products, variants, a collection or the whole store as
coming soon, with an optional countdown and translated texts.

Rules can be created one by one from flags or in bulk from a JSON, YAML or CSV
file, deleted by the hundred from arguments, a file or stdin, and kept equal
to a file (a launch calendar) with apply.`)
	cmd.AddCommand(newCreate(f, nil), manystores.Read(newList(f, nil)), manystores.Read(newGet(f, nil)), newDelete(f, nil), newApply(f, nil))
	return cmd
}
