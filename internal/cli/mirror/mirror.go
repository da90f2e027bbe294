// Package mirror is `storectl mirror`: the local SQLite copy of a store,
// brought up to date incrementally and queried offline.
package mirror

import (
	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/manystores"
)

// New returns `storectl mirror` and its verbs.
func New(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.NewGroup("mirror <command>", "Keep a local SQLite copy of the store and query it",
		`The shop API allows 30 requests a minute and its lists have no filters, so a
question about the whole store (one customer's e-mail, demand per product)
costs hours on a big store. The mirror pays that once: every page read lands
in a SQLite database per profile, later syncs read only what is new, an
interrupted sync continues where it stopped, and bis find, bis demand,
bis export --offline and preorder products --variant-id answer from it in
milliseconds.

Example queries are in docs/mirror.md, the schema in
docs/mirror-reference.md; the file opens in sqlite3 or Datasette too
(mirror path prints where it is).`)
	cmd.AddCommand(manystores.Read(newSync(f, nil)), manystores.Read(newStatus(f, nil)), manystores.Read(newQuery(f, nil)), manystores.Read(newPath(f, nil)), newVacuum(f, nil), newCheck(f, nil), newReset(f, nil),
		newMigrate(f, nil), newCopy(f, nil))
	return cmd
}
