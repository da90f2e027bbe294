package root

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
)

// Main runs storectl with the process's arguments and returns the exit code.
func Main(build cmdutil.BuildInfo) int {
	ctx, stop := handleSignals()
	defer stop()
	return run(ctx, iostreams.System(), build, os.Args[1:])
}

// run runs storectl with args, saying a failure on ios as storectl says
// every failure, and returns the exit code.
func run(ctx context.Context, ios *iostreams.IOStreams, build cmdutil.BuildInfo, args []string) int {
	cmd, f := NewFor(ios, build, args)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(ctx)
	f.Progress().Stop()
	if err == nil {
		return exitcode.OK
	}
	err = asUsageError(cmd, err)
	code := exitcode.Of(err)
	var sig *signalled
	if errors.As(context.Cause(ctx), &sig) {
		// Whatever stopped the work once a signal came (a request, or the
		// mirror's database, cancelled mid-way) is the signal's doing.
		code = sig.exitCode()
	}
	var silent *exitcode.Silent
	switch {
	case errors.As(err, &silent):
	case sig != nil && code == sig.exitCode():
		fmt.Fprintf(ios.ErrOut, "storectl: %s\n", sig)
	case code == exitcode.Interrupted:
		fmt.Fprintln(ios.ErrOut, "storectl: interrupted")
	default:
		cmdutil.SayFailure(ios.ErrOut, err)
	}
	return code
}

// asUsageError gives cobra's one argument error that reaches here, an
// unknown command below a command without verbs ("storectl bogus",
// "storectl completion bash extra"), the usage exit code. Flag errors
// already have it (the root's flag error func), and noun commands reject
// unknown verbs themselves.
func asUsageError(root *cobra.Command, err error) error {
	var c exitcode.Coder
	if errors.As(err, &c) || errors.Is(err, context.Canceled) {
		return err
	}
	var typed, parent string
	if _, scanErr := fmt.Sscanf(err.Error(), "unknown command %q for %q", &typed, &parent); scanErr == nil {
		if cmd, _, findErr := root.Find(strings.Fields(parent)[1:]); findErr == nil {
			return cmdutil.UnknownCommand(cmd, typed)
		}
	}
	if strings.HasPrefix(err.Error(), "unknown command") {
		return exitcode.UsageHint(err, "run `storectl --help` for usage")
	}
	return err
}

// handleSignals makes every signal that can end a run (Ctrl-C, SIGTERM from
// a CI timeout, systemd or `timeout`, SIGHUP from a closed terminal) cancel
// the context, so requests stop, temp files are removed and progress so far
// is reported, as for Ctrl-C. A second signal ends the process at once.
func handleSignals() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		first, ok := <-ch
		if !ok {
			return
		}
		cancel(&signalled{first})
		if second, ok := <-ch; ok {
			os.Exit((&signalled{second}).exitCode())
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(ch)
		cancel(nil)
	}
}

// signalled is the cause of a context a signal ended.
type signalled struct{ sig os.Signal }

func (s *signalled) Error() string {
	switch s.sig {
	case syscall.SIGTERM:
		return "stopped by SIGTERM"
	case syscall.SIGHUP:
		return "stopped by SIGHUP (the terminal closed)"
	}
	return "interrupted"
}

// exitCode is the shell's convention, 128 + the signal's number: 130 for
// Ctrl-C, 143 for SIGTERM, 129 for SIGHUP.
func (s *signalled) exitCode() int {
	if n, ok := s.sig.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return exitcode.Interrupted
}
