// Package profile is `storectl profile`: the stores this machine knows.
package profile

import (
	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
)

// New returns `storectl profile` and its verbs.
func New(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.NewGroup("profile <command>", "List, switch and delete store profiles",
		`A profile is one store: its API URLs and settings in config.yaml, its tokens
in the OS keyring. Pick one per command with --profile or STORECTL_PROFILE;
`+"`storectl profile use`"+` sets the default.`)
	cmd.AddCommand(newList(f, nil), newUse(f, nil), newDelete(f, nil))
	return cmd
}
