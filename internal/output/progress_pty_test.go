//go:build linux

package output

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/storectl/storectl/internal/iostreams"
)

// openPTY returns the two ends of a pseudo-terminal, so the spinner meets a
// real terminal on its stderr.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("ptsname: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pts: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return master, tty
}

// screen collects what the terminal received.
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screen) read(r io.Reader) {
	b := make([]byte, 4096)
	for {
		n, err := r.Read(b)
		s.mu.Lock()
		s.buf.Write(b[:n])
		s.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

func waitFor(t *testing.T, s *screen, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(s.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("terminal never showed %q; got %q", want, s.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestProgressOnTerminal(t *testing.T) {
	master, tty := openPTY(t)
	var scr screen
	go scr.read(master)
	ios := &iostreams.IOStreams{Out: io.Discard, ErrOut: tty, ErrTTY: true}

	p := startProgress(ios, "fetching \x1b]0;x\x07page 1", 10*time.Millisecond)
	waitFor(t, &scr, "fetching page 1")
	p.Update("page 2 of 3")
	waitFor(t, &scr, "page 2 of 3")

	var wg sync.WaitGroup
	for range 4 { // Stop from several goroutines, as a Ctrl-C handler might
		wg.Add(1)
		go func() { defer wg.Done(); p.Stop() }()
	}
	wg.Wait()
	waitFor(t, &scr, "\x1b[?25h\r\x1b[K") // cursor shown again, line cleared
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
	master, tty := openPTY(t)
	var scr screen
	go scr.read(master)
	ios := &iostreams.IOStreams{Out: io.Discard, ErrOut: tty, ErrTTY: true}

	p := StartProgress(ios, "quick")
	p.Stop()
	time.Sleep(2 * showAfter)
	if got := scr.String(); got != "" {
		t.Errorf("a command faster than %v flashed %q", showAfter, got)
	}
}
