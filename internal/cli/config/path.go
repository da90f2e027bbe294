package config

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	cfg "github.com/storectl/storectl/internal/config"
)

func newPath(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "path",
		Short: "Print the config file's path",
		Args:  cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := cfg.Path()
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(f.IOStreams.Out, path)
			return err
		},
	}
}
