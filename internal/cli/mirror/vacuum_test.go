package mirror

import (
	"context"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror/sqlite"
)

// Without a mirror, vacuum says so (exit 2) and makes none.
func TestVacuumWithoutAMirror(t *testing.T) {
	e := clitest.New(t)
	path := mirrorFile(t, e)
	err := runVacuum(context.Background(), &VacuumOptions{MirrorDeps: e.F.MirrorDeps()})
	if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), "no mirror to vacuum") ||
		!strings.Contains(exitcode.HintOf(err), "mirror sync") {
		t.Fatalf("err %v (exit %d, hint %q)", err, exitcode.Of(err), exitcode.HintOf(err))
	}
	if sqlite.Exists(path) {
		t.Fatal("vacuum made a mirror")
	}
}

// After a sync, vacuum rewrites the file and says its size before and
// after; nothing is sent.
func TestVacuumAfterASync(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/coming-soon/list")
	if err := runSync(context.Background(), &SyncOptions{MirrorDeps: e.F.MirrorDeps(), Groups: []string{"comingsoon"}}); err != nil {
		t.Fatal(err)
	}
	e.Out.Reset()
	if err := runVacuum(context.Background(), &VacuumOptions{MirrorDeps: e.F.MirrorDeps()}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(e.Out.String(), "✓ Vacuumed ") || !strings.Contains(e.Out.String(), " → ") {
		t.Fatalf("%q", e.Out.String())
	}
}
