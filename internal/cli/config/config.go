// Package config is `storectl config`: read and change profile settings.
package config

import (
	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
)

// New returns `storectl config` and its verbs.
func New(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.NewGroup("config <command>", "Read and change settings of the current profile",
		`Settings live per profile in config.yaml (see `+"`storectl config path`"+`).
Each setting is resolved from, in order: its flag, its STORECTL_<KEY>
environment variable, the profile in the config file, the default.`)
	cmd.AddCommand(newList(f, nil), newGet(f, nil), newSet(f, nil), newUnset(f, nil), newPath(f, nil))
	return cmd
}
