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
				hint := fmt.Sprintf("run `%s --help` to see its commands", cmd.CommandPath())
				var verbs []string
				for _, c := range cmd.Commands() {
					if c.IsAvailableCommand() {
						verbs = append(verbs, c.Name())
					}
				}
				if guess := Suggest(args[0], verbs); guess != "" {
					hint = fmt.Sprintf("did you mean `%s %s`? (%s)", cmd.CommandPath(), guess, hint)
				}
				return exitcode.UsageHint(fmt.Errorf("unknown command %q for %q", args[0], cmd.CommandPath()), hint)
			}
			return cmd.Help()
		},
	}
}
