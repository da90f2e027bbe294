package mirror

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror/sqlite"
)

var statusNow = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

func statusOpts(e *clitest.Env) *StatusOptions {
	return &StatusOptions{MirrorDeps: e.F.MirrorDeps(), Now: func() time.Time { return statusNow }}
}

// Without a mirror, status says where it would be and how to make one,
// and sends nothing.
func TestStatusWithoutAMirror(t *testing.T) {
	e := clitest.New(t)
	path := mirrorFile(t, e)
	if err := runStatus(context.Background(), statusOpts(e)); err != nil {
		t.Fatal(err)
	}
	want := "no mirror yet: " + path + "\nrun `storectl mirror sync` to make one\n"
	if e.Out.String() != want {
		t.Fatalf("got  %q\nwant %q", e.Out.String(), want)
	}
	if sqlite.Exists(path) {
		t.Fatal("status made a mirror")
	}
}

func TestStatusWithoutAMirrorJSON(t *testing.T) {
	e := clitest.New(t, clitest.WithOutput("json"))
	if err := runStatus(context.Background(), statusOpts(e)); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Path   string `json:"path"`
		Exists *bool  `json:"exists"`
	}
	if err := json.Unmarshal(e.Out.Bytes(), &got); err != nil || got.Exists == nil || *got.Exists || got.Path == "" {
		t.Fatalf("%s (%v)", e.Out, err)
	}
}

// After a sync, status has a row per mirrored list with its counts and
// the passes' ages, then the file's path, size and store.
func TestStatusAfterASync(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/coming-soon/list")
	if err := runSync(context.Background(), &SyncOptions{MirrorDeps: e.F.MirrorDeps(), Groups: []string{"comingsoon"}}); err != nil {
		t.Fatal(err)
	}
	e.Out.Reset()
	if err := runStatus(context.Background(), statusOpts(e)); err != nil {
		t.Fatal(err)
	}
	out := e.Out.String()
	path := mirrorFile(t, e)
	for _, want := range []string{"RESOURCE", "LAST FULL", "\n" + path + " · ", " · https://sandbox.test\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "submission details") {
		t.Errorf("coverage shown without any submission mirrored:\n%s", out)
	}
}

func TestStatusAfterASyncJSON(t *testing.T) {
	e := clitest.New(t, clitest.WithOutput("json"))
	e.Sends("GET /shop-api/coming-soon/list")
	if err := runSync(context.Background(), &SyncOptions{MirrorDeps: e.F.MirrorDeps(), Groups: []string{"comingsoon"}}); err != nil {
		t.Fatal(err)
	}
	e.Out.Reset()
	if err := runStatus(context.Background(), statusOpts(e)); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Exists    bool  `json:"exists"`
		SizeBytes int64 `json:"size_bytes"`
		Resources []struct {
			Resource   string     `json:"resource"`
			Group      string     `json:"group"`
			Rows       int        `json:"rows"`
			LastFull   *time.Time `json:"last_full"`
			Unfinished any        `json:"unfinished"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(e.Out.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, e.Out)
	}
	synced := 0
	for _, r := range got.Resources {
		if r.Group == "comingsoon" {
			synced++
			if r.Rows == 0 || r.LastFull == nil || r.Unfinished != nil {
				t.Errorf("after a full pass: %+v", r)
			}
		}
	}
	if !got.Exists || got.SizeBytes == 0 || synced == 0 {
		t.Fatalf("%s", e.Out)
	}
}

func TestHumanBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 1023: "1023 bytes", 4096: "4 kB", 5 << 20: "5.0 MB", 3 << 30: "3.0 GB"} {
		if got := humanBytes(n); got != want {
			t.Errorf("humanBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestPath(t *testing.T) {
	e := clitest.New(t)
	if err := runPath(context.Background(), &PathOptions{IO: e.IO, Settings: e.F.Settings}); err != nil {
		t.Fatal(err)
	}
	path := mirrorFile(t, e)
	if e.Out.String() != path+"\n" {
		t.Fatalf("got %q, want %q", e.Out, path)
	}
}

func TestResetWithoutAMirror(t *testing.T) {
	e := clitest.New(t)
	if err := runReset(context.Background(), &ResetOptions{IO: e.IO, Settings: e.F.Settings}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(e.ErrOut.String(), `no mirror to delete for profile "default" (`) {
		t.Fatalf("%q", e.ErrOut)
	}
}

// Without a terminal to ask at, reset wants --yes and keeps the file.
func TestResetWantsYesWithoutATerminal(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/coming-soon/list")
	if err := runSync(context.Background(), &SyncOptions{MirrorDeps: e.F.MirrorDeps(), Groups: []string{"comingsoon"}}); err != nil {
		t.Fatal(err)
	}
	path := mirrorFile(t, e)
	err := runReset(context.Background(), &ResetOptions{IO: e.IO, Settings: e.F.Settings})
	clitest.WantExit(t, err, exitcode.Usage)
	if !strings.Contains(err.Error()+exitcode.HintOf(err), "--yes") {
		t.Errorf("%v (hint %q)", err, exitcode.HintOf(err))
	}
	if !sqlite.Exists(path) {
		t.Fatal("refused reset deleted the mirror")
	}
	e.ErrOut.Reset()
	if err := runReset(context.Background(), &ResetOptions{IO: e.IO, Settings: e.F.Settings, Yes: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("mirror still there: %v", err)
	}
	if e.ErrOut.String() != "✓ Deleted the mirror of profile \"default\"\n" {
		t.Fatalf("%q", e.ErrOut)
	}
}
