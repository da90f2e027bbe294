//go:build linux

package output

import (
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/iostreams/ptytest"
)

func TestProgressOnTerminal(t *testing.T) {
	master, tty := ptytest.Open(t)
	var scr ptytest.Screen
	go scr.Read(master)
	ios := &iostreams.IOStreams{Out: io.Discard, ErrOut: tty, ErrTTY: true, ErrRedraw: true}

	p := startProgress(ios, "fetching \x1b]0;x\x07page 1", 10*time.Millisecond)
	scr.WaitFor(t, "fetching page 1")
	p.Update("page 2 of 3")
	scr.WaitFor(t, "page 2 of 3")

	var wg sync.WaitGroup
	for range 4 { // Stop from several goroutines, as a Ctrl-C handler might
		wg.Add(1)
		go func() { defer wg.Done(); p.Stop() }()
	}
	wg.Wait()
	scr.WaitFor(t, "\x1b[?25h\r\x1b[K") // cursor shown again, line cleared
	got := scr.String()
	if strings.Count(got, "\x1b[?25h") != 1 {
		t.Errorf("cursor restored %d times", strings.Count(got, "\x1b[?25h"))
	}
	if !strings.HasSuffix(got, "\r\x1b[K") {
		t.Errorf("spinner line not cleared at the end: %q", got[max(0, len(got)-40):])
	}
	if strings.Contains(got, "]0;x") {
		t.Error("status text reached the terminal unsanitised")
	}
}

func TestProgressFastWorkNeverShows(t *testing.T) {
	master, tty := ptytest.Open(t)
	var scr ptytest.Screen
	go scr.Read(master)
	ios := &iostreams.IOStreams{Out: io.Discard, ErrOut: tty, ErrTTY: true, ErrRedraw: true}

	p := StartProgress(ios, "quick")
	p.Stop()
	time.Sleep(2 * showAfter)
	if got := scr.String(); got != "" {
		t.Errorf("a command faster than %v flashed %q", showAfter, got)
	}
}
