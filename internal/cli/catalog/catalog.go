// Package catalog holds `storectl catalog`: the filter, search and settings
// endpoints of the catalog API, showing exactly what the storefront widgets
// see.
package catalog

import (
	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/manystores"
)

// New returns the catalog noun command.
func New(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.NewGroup("catalog <command>", "Query the catalog API: filtered products, search, settings",
		`Run the catalog API's queries the way the storefront's filter and search
widgets do, for headless storefronts and support.

The catalog token comes from the profile (storectl auth login
--catalog-token-stdin) or STORECTL_CATALOG_TOKEN. filter and search need its
read:catalog scope, settings its read:config scope.

-o json prints the whole response object as the server sent it; with --all,
its product array holds every page's products (the other keys, pagination
included, are the first page's); --jq runs on that object. -o ndjson prints
one product per line, -o csv one row per product.`)
	cmd.AddCommand(manystores.Read(newFilter(f, nil)), manystores.Read(newSearch(f, nil)), manystores.Read(newSettings(f, nil)))
	return cmd
}
