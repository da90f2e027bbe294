package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/storectl/storectl/internal/exitcode"
)

func usage(msg string) error { return exitcode.UsageError(msg) }

// notSynced is an answer from lists the mirror never held.
func notSynced(groups []string) error {
	return exitcode.UsageHint(fmt.Errorf("the mirror has no copy of %s yet, and this answer sends nothing", strings.Join(groups, ", ")),
		fmt.Sprintf("call mirror_sync with lists %s first", strings.Join(groups, ", ")))
}

// classes name the exit codes, as `storectl --help` does: what kind of
// failure a tool error is.
var classes = map[int]string{
	exitcode.Failure:     "unexpected error (network, bad server response, I/O)",
	exitcode.Usage:       "usage error or local validation failure: nothing was sent",
	exitcode.APIRefused:  "the API refused the request",
	exitcode.Auth:        "authentication or permission",
	exitcode.Partial:     "partial failure: some items done, some not",
	exitcode.Interrupted: "interrupted",
}

// errorText is a tool error in the CLI's words: its message, its hint,
// and its exit code with what that code means. A command whose error is
// only an exit code (it said why on stderr) is explained by its last lines.
func errorText(err error, said []string) string {
	code := exitcode.Of(err)
	if errors.Is(err, context.DeadlineExceeded) {
		code = exitcode.Failure
	}
	msg := err.Error()
	var silent *exitcode.Silent
	if errors.As(err, &silent) || msg == "" {
		msg = strings.Join(lastLines(said, 5), "\n")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "error: %s", msg)
	if hint := exitcode.HintOf(err); hint != "" {
		fmt.Fprintf(&b, "\nhint: %s", fromHere(hint))
	}
	class := classes[code]
	if class == "" {
		class = "failure"
	}
	fmt.Fprintf(&b, "\n(exit code %d: %s)", code, class)
	return clean(b.String())
}

// fromHere adds to a hint that names a storectl command what does the
// same from this server.
func fromHere(hint string) string {
	if strings.Contains(hint, "storectl mirror sync") && !strings.Contains(hint, "mirror_sync") {
		hint += " (from this server: the mirror_sync tool)"
	}
	return hint
}

func lastLines(lines []string, n int) []string {
	if len(lines) > n {
		return lines[len(lines)-n:]
	}
	return lines
}
