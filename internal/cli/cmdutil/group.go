package cmdutil

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/exitcode"
)

// NewGroup returns a noun command (auth, bis, …) that shows its help when
// called alone and rejects an unknown verb with a usage error, where cobra
// would otherwise print help and exit 0.
func NewGroup(use, short, long string) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		Long:  long,
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return exitcode.WithHint(exitcode.Usage,
					fmt.Errorf("unknown command %q for %q", args[0], cmd.CommandPath()),
					fmt.Sprintf("run `%s --help` to see its commands", cmd.CommandPath()))
			}
			return cmd.Help()
		},
	}
}
