package catalog

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/cli/clitest"
)

// run executes `catalog ARGS…` against env's sandbox.
func run(t *testing.T, env *clitest.Env, args ...string) error {
	t.Helper()
	return clitest.Execute(New(env.F), args...)
}

// mustRun is run that must succeed.
func mustRun(t *testing.T, env *clitest.Env, args ...string) {
	t.Helper()
	if err := run(t, env, args...); err != nil {
		t.Fatalf("catalog %s: %v\nstderr: %s", strings.Join(args, " "), err, env.ErrOut)
	}
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
