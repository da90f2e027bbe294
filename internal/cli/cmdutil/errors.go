package cmdutil

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"

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

// LocalPathError gives the error of a path the user named (a directory
// that does not exist, a file where a directory should be, no permission,
// a read-only disk) the usage exit code, 2: the path is to fix, not the
// store or the tool. Any other error is returned as it is.
func LocalPathError(err error) error {
	var coded exitcode.Coder
	if err == nil || errors.As(err, &coded) {
		return err
	}
	for _, local := range []error{fs.ErrNotExist, fs.ErrPermission, fs.ErrExist, syscall.ENOTDIR, syscall.EISDIR, syscall.EROFS, syscall.ENAMETOOLONG} {
		if errors.Is(err, local) {
			return exitcode.Wrap(exitcode.Usage, err)
		}
	}
	return err
}
