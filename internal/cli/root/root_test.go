package root

import (
	"testing"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/iostreams"
)

// TestEveryCommandHasAnExample keeps the help complete: each command a
// user runs shows at least one example.
func TestEveryCommandHasAnExample(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd, _ := New(ios, cmdutil.BuildInfo{Version: "test"})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			// cobra's own completion and help commands document themselves.
			if sub.Hidden || sub.Name() == "completion" || sub.Name() == "help" {
				continue
			}
			if sub.Runnable() && !sub.HasSubCommands() && sub.Example == "" {
				t.Errorf("%s has no example", sub.CommandPath())
			}
			walk(sub)
		}
	}
	walk(cmd)
}
