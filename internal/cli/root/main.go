package root

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// Main runs storectl with the process's arguments and returns the exit code.
func Main(build cmdutil.BuildInfo) int {
	ios := iostreams.System()
	cmd, f := New(ios, build)

	// Ctrl-C cancels the context: requests stop, exports remove their temp
	// files, and the exit code is 130.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	err := cmd.ExecuteContext(ctx)
	f.Progress().Stop()
	if err == nil {
		return exitcode.OK
	}
	err = asUsageError(err)
	code := exitcode.Of(err)
	var silent *exitcode.Silent
	switch {
	case errors.As(err, &silent):
	case code == exitcode.Interrupted:
		fmt.Fprintln(ios.ErrOut, "storectl: interrupted")
	default:
		fmt.Fprintf(ios.ErrOut, "storectl: %s\n", output.Sanitize(err.Error()))
		if hint := exitcode.HintOf(err); hint != "" {
			fmt.Fprintf(ios.ErrOut, "hint: %s\n", hint)
		}
	}
	return code
}

// asUsageError gives cobra's one argument error that reaches here, an
// unknown command below a command without verbs ("storectl bogus",
// "storectl completion bash extra"), the usage exit code. Flag errors
// already have it (the root's flag error func), and noun commands reject
// unknown verbs themselves.
func asUsageError(err error) error {
	var c exitcode.Coder
	if errors.As(err, &c) || errors.Is(err, context.Canceled) {
		return err
	}
	if strings.HasPrefix(err.Error(), "unknown command") {
		return exitcode.WithHint(exitcode.Usage, err, "run `storectl --help` for usage")
	}
	return err
}
