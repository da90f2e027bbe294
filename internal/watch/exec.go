package watch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"time"
)

// Command runs a shell command once per event (--exec): the event's JSON
// on its stdin, STORECTL_EVENT_TYPE and STORECTL_EVENT_ID in its
// environment. A non-zero exit is retried like a failed POST; a run that
// outlasts the timeout is killed, with whatever it started.
type Command struct {
	command        string
	timeout        time.Duration
	stdout, stderr io.Writer
}

// NewCommand runs command through the shell (sh -c; cmd /C on Windows),
// its output on stdout and stderr.
func NewCommand(command string, timeout time.Duration, stdout, stderr io.Writer) *Command {
	return &Command{command: command, timeout: timeout, stdout: stdout, stderr: stderr}
}

func (c *Command) Deliver(ctx context.Context, d Delivery) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, shell[0], shell[1], c.command)
	cmd.Stdin = bytes.NewReader(append(append([]byte{}, d.Body...), '\n'))
	cmd.Stdout, cmd.Stderr = c.stdout, c.stderr
	cmd.Env = append(os.Environ(), "STORECTL_EVENT_TYPE="+d.Type, "STORECTL_EVENT_ID="+d.ID)
	killGroup(cmd)
	// Output pipes a killed command's children hold open end the wait too.
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return fmt.Errorf("did not finish within %s: stopped", c.timeout)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return fmt.Errorf("exited with status %d", exit.ExitCode())
	}
	return err
}

func (c *Command) String() string { return fmt.Sprintf("the command %q", c.command) }

// shell runs the command line.
var shell = func() [2]string {
	if runtime.GOOS == "windows" {
		return [2]string{"cmd", "/C"}
	}
	return [2]string{"/bin/sh", "-c"}
}()
