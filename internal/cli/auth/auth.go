// Package auth is `storectl auth`: log in to a store, check and remove tokens.
package auth

import (
	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/manystores"
)

// New returns `storectl auth` and its verbs.
func New(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.NewGroup("auth <command>", "Log in to a store and manage its API tokens",
		`A store has two tokens: the shop API token (back in stock, pre-order, coming
soon) and the catalog API token (filter, search, settings). They are kept in
the OS keyring, one entry per profile and kind, or with --insecure-storage in a
mode-0600 file. STORECTL_SHOP_TOKEN and STORECTL_CATALOG_TOKEN override both.`)
	cmd.AddCommand(newLogin(f, nil), manystores.Read(newStatus(f, nil)), newLogout(f, nil), newToken(f, nil))
	return cmd
}
