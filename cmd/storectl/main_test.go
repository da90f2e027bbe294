package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/root"
)

// TestMain lets testscript run the real storectl binary (this test binary
// re-executed as "storectl").
func TestMain(m *testing.M) {
	testscript.Main(stopPGServer{m}, map[string]func(){
		"storectl": func() {
			// STORECTL_TEST_NOW fixes the clock of the views of dated data
			// (cmdutil.Clock): the demo store's dates are fixed.
			if now := os.Getenv("STORECTL_TEST_NOW"); now != "" {
				at, err := time.Parse(time.RFC3339, now)
				if err != nil {
					fmt.Fprintf(os.Stderr, "STORECTL_TEST_NOW: %v\n", err)
					os.Exit(2)
				}
				cmdutil.Clock = func() time.Time { return at }
			}
			os.Exit(root.Main(cmdutil.BuildInfo{Version: "0.0.0-test", Commit: "test", Date: "today"}))
		},
	})
}

// raceOptions are the race detector's options for the storectl processes
// the tests start (the test binary, built with -race in CI): by default it
// sleeps a second before each process exits, to let reports out, which
// was most of the time of a script under -race. A report still fails the
// process.
func raceOptions() string {
	return strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0")
}

// TestScripts runs testdata/script/*.txtar. Each script gets its own HOME
// and XDG directories, so config, keyring-less token files, the sandbox
// state and the pacing budget never leak between scripts.
func TestScripts(t *testing.T) {
	testscript.Run(t, scriptParams(false))
}

// scriptParams are the scripts' commands, conditions and set-up: the
// same for both passes, but for [pgmirror], true when their mirror is
// on PostgreSQL (TestScriptsOnPostgres).
func scriptParams(onPostgres bool) testscript.Params {
	return testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			env.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
			env.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
			env.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
			env.Setenv("NO_COLOR", "1")
			// No Secret Service is reachable in tests: fail fast, never hang.
			env.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(env.WorkDir, "no-dbus"))
			env.Setenv("GORACE", raceOptions())
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "office":
				return officeCondition(), nil
			case "pg":
				return pgCondition()
			case "pgmirror":
				return onPostgres, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":        cmdExits,
			"fakeapi":      cmdFakeAPI,
			"waitfile":     cmdWaitFile,
			"httpget":      cmdHTTPGet,
			"sandboxgrow":  cmdSandboxGrow,
			"xlsxcells":    cmdXLSXCells,
			"pgdb":         cmdPGDB,
			"pgreader":     cmdPGReader,
			"pgroles":      cmdPGRoles,
			"odscheck":     cmdODSCheck,
			"reportcheck":  cmdReportCheck,
			"webhookrecv":  cmdWebhookRecv,
			"sandboxsend":  cmdSandboxSend,
			"proxyrec":     cmdProxyRec,
			"silentserver": cmdSilentServer,
		},
	}
}
