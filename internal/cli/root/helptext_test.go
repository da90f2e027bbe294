package root

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/helptopic"
	"github.com/storectl/storectl/internal/iostreams"
)

// TestHelpTextsRenderedOnlyWhenShown: every run builds the whole tree, so
// the texts rendered from tables (the environment topic, the root's exit
// codes) must not be rendered while building it, yet every way of asking
// for help shows them in full.
func TestHelpTextsRenderedOnlyWhenShown(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd, _ := New(ios, cmdutil.BuildInfo{Version: "test"})
	env := findCommand(t, cmd, "environment")
	if env.Long != "" || strings.Contains(cmd.Long, "Exit codes:") {
		t.Fatalf("help texts rendered while building the tree: environment's Long %d bytes, root's has the exit codes: %v",
			len(env.Long), strings.Contains(cmd.Long, "Exit codes:"))
	}

	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		if out := runTree(t, args...); !strings.HasSuffix(strings.TrimSpace(strings.Split(out, "Usage:")[0]), helptopic.ExitCodesHelp()) {
			t.Errorf("storectl %s: the description does not end with the exit codes:\n%s", strings.Join(args, " "), out)
		}
	}
	for _, args := range [][]string{{"help", "environment"}, {"environment", "--help"}} {
		if out := runTree(t, args...); !strings.HasPrefix(out, helptopic.EnvironmentHelp()) {
			t.Errorf("storectl %s does not print the environment topic:\n%s", strings.Join(args, " "), out)
		}
	}
}

func findCommand(t *testing.T, root *cobra.Command, name string) *cobra.Command {
	t.Helper()
	c, _, err := root.Find([]string{name})
	if err != nil || c.Name() != name {
		t.Fatalf("no %s command: %v", name, err)
	}
	return c
}

// runTree runs a fresh tree with args and returns what it printed.
func runTree(t *testing.T, args ...string) string {
	t.Helper()
	ios, _, stdout, stderr := iostreams.Test()
	cmd, _ := New(ios, cmdutil.BuildInfo{Version: "test"})
	cmd.SetArgs(args)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("storectl %s: %v (%s)", strings.Join(args, " "), err, stderr)
	}
	return stdout.String()
}
