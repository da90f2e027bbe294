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
	"strings"
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
	cmd.Env = append(childEnv(os.Environ()), "STORECTL_EVENT_TYPE="+d.Type, "STORECTL_EVENT_ID="+d.ID)
	killGroup(cmd)
	// Output pipes that children of the command hold open (a killed
	// command's, or one it left running in the background) end the wait
	// too.
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case cmd.ProcessState != nil && cmd.ProcessState.Success():
		// It exited 0: delivered, whatever a child it left behind still
		// holds (the wait for that output is not the command's time).
		return nil
	case ctx.Err() == context.DeadlineExceeded:
		return fmt.Errorf("did not finish within %s: stopped", c.timeout)
	case errors.As(err, &exit):
		return fmt.Errorf("exited with status %d", exit.ExitCode())
	}
	return err
}

// childEnv is storectl's environment without its secrets: the command
// runs per event, maybe written by someone else, and needs none of them to
// read the event on its stdin. Out go the stores' tokens, the webhook
// secret, the mirror's URL (which may hold a password) and PostgreSQL's
// password.
func childEnv(env []string) []string {
	kept := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !secretVariable(name) {
			kept = append(kept, kv)
		}
	}
	return kept
}

func secretVariable(name string) bool {
	if runtime.GOOS == "windows" {
		name = strings.ToUpper(name)
	}
	switch {
	case name == "PGPASSWORD", name == "STORECTL_MIRROR_URL":
		return true
	case strings.HasPrefix(name, "STORECTL_"):
		return strings.HasSuffix(name, "_TOKEN") || strings.HasSuffix(name, "_SECRET") || strings.HasSuffix(name, "_PASSWORD")
	}
	return false
}

func (c *Command) String() string { return fmt.Sprintf("the command %q", c.command) }

// shell runs the command line.
var shell = func() [2]string {
	if runtime.GOOS == "windows" {
		return [2]string{"cmd", "/C"}
	}
	return [2]string{"/bin/sh", "-c"}
}()
