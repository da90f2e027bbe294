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

// An export that creates the mirror asks for the first page meanwhile
// (creating one takes tens of milliseconds), so that the first request,
// which starts the throttle's window, is not held back by it; the walk
// then takes that answer instead of asking for page 1 again. An export
// onto an existing mirror (which may hold another store, refused before
// anything is sent) and a --resume ask for nothing before the open.
func TestExportAsksForTheFirstPageWhileTheMirrorIsCreated(t *testing.T) {
	served := &firstServed{ch: make(chan struct{})}
	e := clitest.New(t, clitest.WithOutput("csv"), clitest.WithSandbox(func(o *sandbox.Options) { o.Log = served }))
	e.Sends("GET /shop-api/back-in-stock/list")
	opts := exportOpts(t, e)
	opts.File = filepath.Join(t.TempDir(), "out.csv")
	open := opts.Mirror
	var during bool
	opts.Mirror = func(ctx context.Context, mode mirror.Mode) (*mirror.DB, error) {
		db, err := open(ctx, mode)
		// Only a request sent while the mirror was created can arrive
		// before this open returns.
		select {
		case <-served.ch:
			during = true
		case <-time.After(5 * time.Second):
		}
		return db, err
	}
	if err := runExport(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if !during {
		t.Fatal("the first page was not asked for while the mirror was created")
	}
	pages := len(e.Requests.Lines())
	if pages != 22 { // 320 demo submissions, 15 a page: page 1 once
		t.Fatalf("%d requests, want 22 (the first page asked for once):\n%s", pages, e.Requests)
	}

	for _, resume := range []bool{false, true} {
		opts.Resume = resume
		var early bool
		opts.Mirror = func(ctx context.Context, mode mirror.Mode) (*mirror.DB, error) {
			db, err := open(ctx, mode)
			early = len(e.Requests.Lines()) > pages
			return db, err
		}
		if err := runExport(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		if early {
			t.Fatalf("resume %v: a page was asked for while an existing mirror opened", resume)
		}
		pages = len(e.Requests.Lines())
	}
}
