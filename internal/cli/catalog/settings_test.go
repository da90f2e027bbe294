package catalog

import (
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/sandbox"
)

func TestSettingsTableAndJSON(t *testing.T) {
	env := clitest.New(t)
	env.Sends("GET /sfs/v1/settings")
	mustRun(t, env, "settings")
	out := env.Out.String()
	if !strings.HasPrefix(out, "KEY") || !strings.Contains(out, "products_per_page") || strings.Contains(out, "success") {
		t.Errorf("table:\n%s", out)
	}

	env = clitest.New(t, clitest.WithOutput("json"))
	env.Sends("GET /sfs/v1/settings")
	mustRun(t, env, "settings")
	obj := object(t, env)
	if _, ok := obj["filters"]; !ok {
		t.Errorf("json keys %v; want the object under data", obj)
	}

	env = clitest.New(t, clitest.WithOutput("yaml"))
	env.Sends("GET /sfs/v1/settings")
	mustRun(t, env, "settings")
	if !strings.Contains(env.Out.String(), "currency: USD") {
		t.Errorf("yaml:\n%s", env.Out)
	}
}

func TestSettingsNeedsReadConfig(t *testing.T) {
	env := clitest.New(t, clitest.WithTokens(sandbox.ShopToken, sandbox.CatalogReadToken))
	env.Sends("GET /sfs/v1/settings")
	err := run(t, env, "settings")
	clitest.WantExit(t, err, exitcode.Auth)
	if !strings.Contains(err.Error(), "read:config scope") || !strings.Contains(err.Error(), "store is currently unavailable") {
		t.Errorf("403: %v", err)
	}
}
