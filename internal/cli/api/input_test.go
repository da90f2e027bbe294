package api

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/exitcode"
)

// Inputs over 32 MiB are refused before anything is read into memory or
// sent: a file (checked by its size), and stdin (read up to the cap).
func TestInputsOverTheCapAreRefused(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(maxInput + 1); err != nil { // sparse: costs no disk
		t.Fatal(err)
	}
	f.Close()
	for _, args := range [][]string{
		{"/shop-api/coming-soon/create", "--input", big},
		{"/shop-api/coming-soon/create", "-F", "name=@" + big},
		{"/shop-api/coming-soon/create", "--input", "-"},
		{"/shop-api/coming-soon/create", "-F", "name=@-"},
	} {
		e := clitest.New(t)
		e.F.IOStreams.In = io.LimitReader(zeros{}, maxInput+1)
		err := runAPI(e, args...)
		clitest.WantExit(t, err, exitcode.Usage)
		if !strings.Contains(err.Error(), "holds more than 32 MiB, the most storectl reads for one request") {
			t.Errorf("%q: err = %v", args, err)
		}
		if e.Requests.String() != "" {
			t.Errorf("%q sent %s", args, e.Requests)
		}
	}
	// Exactly the cap is read.
	e := clitest.New(t)
	opts := &Options{IO: e.F.IOStreams}
	opts.IO.In = io.LimitReader(zeros{}, maxInput)
	if data, err := opts.readAll("-"); err != nil || len(data) != maxInput {
		t.Errorf("exactly 32 MiB: %d bytes, %v", len(data), err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

// The first Ctrl-C stops a read that blocks: a FIFO nobody writes to
// blocks in open(2) itself, a terminal in read(2).
func TestInputReadStopsOnTheFirstInterrupt(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	blockingStdin, w := io.Pipe()
	defer w.Close()
	for _, args := range [][]string{
		{"/shop-api/coming-soon/create", "--input", fifo},
		{"/shop-api/coming-soon/create", "-F", "name=@" + fifo},
		{"/shop-api/coming-soon/create", "-F", "name=@-"},
	} {
		e := clitest.New(t)
		e.F.IOStreams.In = blockingStdin
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			cmd := newCmd(e.F, nil)
			cmd.SilenceErrors, cmd.SilenceUsage = true, true
			cmd.SetOut(io.Discard)
			cmd.SetErr(io.Discard)
			cmd.SetArgs(args)
			done <- cmd.ExecuteContext(ctx)
		}()
		time.Sleep(50 * time.Millisecond)
		cancel()
		select {
		case err := <-done:
			clitest.WantExit(t, err, exitcode.Interrupted)
		case <-time.After(5 * time.Second):
			t.Fatalf("%q: still reading 5s after Ctrl-C", args)
		}
		if e.Requests.String() != "" {
			t.Errorf("%q sent %s", args, e.Requests)
		}
		// Let the abandoned open return, so the goroutine ends.
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	}
}
