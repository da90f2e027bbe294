//go:build linux

package output

import (
	"fmt"
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

// A warning written to stderr while the spinner shows (by any code, not
// only through Say) starts on a cleared line, and the spinner comes back
// below it.
func TestProgressClearsItsLineBeforeAWarning(t *testing.T) {
	master, tty := ptytest.Open(t)
	var scr ptytest.Screen
	go scr.Read(master)
	ios := &iostreams.IOStreams{Out: io.Discard, ErrOut: iostreams.NewStderr(tty), ErrTTY: true, ErrRedraw: true}

	p := startProgress(ios, "fetching page 1", 10*time.Millisecond)
	defer p.Stop()
	scr.WaitFor(t, "fetching page 1")
	fmt.Fprintln(ios.ErrOut, "warning: page 3 was empty")
	scr.WaitFor(t, "warning: page 3 was empty")
	got := scr.String()
	at := strings.Index(got, "warning: page 3 was empty")
	if !strings.HasSuffix(got[:at], "\r\x1b[K") {
		t.Errorf("the warning was written on the spinner's line: %q", got[max(0, at-40):at+25])
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(scr.String()[at:], "fetching page 1") {
		if time.Now().After(deadline) {
			t.Fatalf("the spinner did not come back below the warning: %q", scr.String()[at:])
		}
		time.Sleep(5 * time.Millisecond)
	}
	p.Stop()
	fmt.Fprintln(ios.ErrOut, "after")
	scr.WaitFor(t, "after")
}
