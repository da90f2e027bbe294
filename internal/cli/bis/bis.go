// Package bis is `storectl bis`: the back-in-stock form, submissions one at
// a time or from a file, listing, reading and exporting them.
package bis

import (
	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/manystores"
)

// New returns `storectl bis` and its verbs.
func New(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.NewGroup("bis <command>", "Back in stock: the form, submissions, exports",
		`Customers register to be told when a variant is back in stock, through a form
the merchant configures with custom fields. These commands read that form,
register customers (one at a time, interactively, or from a CSV/JSON file),
and list, read and export the submissions.

The form definition is cached per profile and used to check every submission
locally, with the server's own messages, before anything is sent.`)
	forms := newFormStore(f)
	cmd.AddCommand(newForm(f, forms, nil), newCreate(f, forms, nil), manystores.Read(newList(f, nil)), manystores.Read(newGet(f, forms, nil)),
		manystores.ReadToFile(newExport(f, forms, nil), "file", "submission"), manystores.Read(newFind(f, nil)), manystores.Read(newDemand(f, nil)),
		manystores.OneStoreFlag(manystores.Read(newReport(f, nil)), "html"))
	return cmd
}
