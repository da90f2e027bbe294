package catalog

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/exitcode"
)

// run executes `catalog ARGS…` against env's sandbox.
func run(t *testing.T, env *clitest.Env, args ...string) error {
	t.Helper()
	cmd := New(env.F)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SetArgs(args)
	return cmd.ExecuteContext(context.Background())
}

// mustRun is run that must succeed.
func mustRun(t *testing.T, env *clitest.Env, args ...string) {
	t.Helper()
	if err := run(t, env, args...); err != nil {
		t.Fatalf("catalog %s: %v\nstderr: %s", strings.Join(args, " "), err, env.ErrOut)
	}
}

// wantExit checks err's exit code.
func wantExit(t *testing.T, err error, code int) {
	t.Helper()
	if got := exitcode.Of(err); got != code {
		t.Fatalf("exit code %d (%v); want %d", got, err, code)
	}
}

// queries returns the query strings of the logged requests to path.
func queries(env *clitest.Env, path string) []string {
	var out []string
	for _, line := range env.Requests.Lines() {
		target, _, _ := strings.Cut(strings.TrimPrefix(line, "GET "), " ")
		p, q, _ := strings.Cut(target, "?")
		if p == path {
			out = append(out, q)
		}
	}
	return out
}

// object decodes stdout as one JSON object.
func object(t *testing.T, env *clitest.Env) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(env.Out.Bytes(), &m); err != nil {
		t.Fatalf("stdout is not a JSON object: %v\n%s", err, env.Out)
	}
	return m
}
