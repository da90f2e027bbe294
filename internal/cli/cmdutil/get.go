package cmdutil

import (
	"context"

	"github.com/spf13/cobra"
)

// IDArg is what the ID argument of a `get` command names, for its
// messages.
type IDArg struct {
	Noun string // "offer"
	List string // the command that shows the ids: "storectl preorder list"
}

// Args takes exactly the one ID.
func (a IDArg) Args() cobra.PositionalArgs { return ExactArgs(1, "one "+a.Noun+" ID") }

// GetRunE is a get command's RunE: the argument put in *id, then run (or
// a test's runF, see Run).
func GetRunE[O any](opts *O, id *string, runF func(*O) error, run func(context.Context, *O) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		*id = args[0]
		return Run(cmd.Context(), opts, runF, run)
	}
}
