// Package preorder is `storectl preorder`: pre-order offers and which offer
// wins each variant.
package preorder

import (
	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/manystores"
)

// New returns `storectl preorder` and its verbs.
func New(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.NewGroup("preorder <command>", "Inspect pre-order offers and the offer each variant gets",
		`Pre-order offers let a product, a collection or the whole store sell before
stock arrives, with optional deposits and discounts. A variant in several
offers gets one of them, chosen in this order:

  1. a manual assignment;
  2. the most specific offer: product, then collection, then all;
  3. the newest offer (latest updated_at).

"preorder products" shows the winner for each variant and why.`)
	cmd.AddCommand(manystores.Read(newList(f, nil)), manystores.Read(newGet(f, nil)), manystores.Read(newProducts(f, nil)))
	return cmd
}
