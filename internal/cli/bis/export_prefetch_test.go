package bis

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/sandbox"
)

// firstServed closes its channel once the sandbox has served a request.
type firstServed struct {
	once sync.Once
	ch   chan struct{}
}

func (f *firstServed) Write(p []byte) (int, error) {
	f.once.Do(func() { close(f.ch) })
	return len(p), nil
}

// An export asks for the first page while it opens the mirror (creating
// one takes tens of milliseconds), so that the first request, which starts
// the throttle's window, is not held back by it; the walk then takes that
// answer instead of asking for page 1 again, and a --resume, which starts
// further on, asks for nothing before the mirror is open.
func TestExportAsksForTheFirstPageWhileTheMirrorOpens(t *testing.T) {
	served := &firstServed{ch: make(chan struct{})}
	e := clitest.New(t, clitest.WithOutput("csv"), clitest.WithSandbox(func(o *sandbox.Options) { o.Log = served }))
	e.Sends("GET /shop-api/back-in-stock/list")
	opts := exportOpts(t, e)
	opts.File = filepath.Join(t.TempDir(), "out.csv")
	open := opts.Mirror
	var before, resumed bool
	opts.Mirror = func(ctx context.Context, mode mirror.Mode) (*mirror.DB, error) {
		select {
		case <-served.ch:
			before = true
		case <-time.After(5 * time.Second):
		}
		return open(ctx, mode)
	}
	if err := runExport(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if !before {
		t.Fatal("no request was served while the mirror was being opened")
	}
	want := len(e.Requests.Lines())
	if want != 22 { // 320 demo submissions, 15 a page: page 1 once
		t.Fatalf("%d requests, want 22 (the first page asked for once):\n%s", want, e.Requests)
	}

	opts.Resume = true
	opts.Mirror = func(ctx context.Context, mode mirror.Mode) (*mirror.DB, error) {
		resumed = len(e.Requests.Lines()) > want
		return open(ctx, mode)
	}
	if err := runExport(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if resumed {
		t.Fatal("--resume asked for a page before the mirror was open")
	}
}
