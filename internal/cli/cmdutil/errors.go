package cmdutil

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/output"
)

// ExactArgs is cobra.ExactArgs with a usage error and the command's usage line.
func ExactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return exitcode.UsageHint(fmt.Errorf("%s takes %s (got %s)", cmd.CommandPath(), what, output.Plural(len(args), "argument")),
				"usage: "+cmd.UseLine())
		}
		return nil
	}
}

// NoArgs rejects positional arguments with a usage error.
func NoArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return exitcode.UsageHint(fmt.Errorf("%s takes no arguments (got %q)", cmd.CommandPath(), args[0]),
			"usage: "+cmd.UseLine())
	}
	return nil
}

// MaximumArgs allows at most n positional arguments.
func MaximumArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n {
			return exitcode.UsageHint(fmt.Errorf("%s takes at most %s (got %d arguments)", cmd.CommandPath(), what, len(args)),
				"usage: "+cmd.UseLine())
		}
		return nil
	}
}

// MutuallyExclusive fails when more than one of the named conditions holds.
func MutuallyExclusive(message string, conditions ...bool) error {
	n := 0
	for _, c := range conditions {
		if c {
			n++
		}
	}
	if n > 1 {
		return exitcode.UsageError(message)
	}
	return nil
}
