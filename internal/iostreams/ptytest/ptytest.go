//go:build linux

// Package ptytest gives tests a real pseudo-terminal, so that terminal
// detection, spinners and pagers meet what a person's terminal gives them.
package ptytest

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
)

// Open returns the two ends of a pseudo-terminal of 80x24 (the test is
// skipped where there are none): what is written to tty can be read from
// master.
func Open(t testing.TB) (master, tty *os.File) {
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
	SetSize(t, tty, 24, 80)
	return master, tty
}

// SetSize gives the terminal rows and columns.
func SetSize(t testing.TB, tty *os.File, rows, cols uint16) {
	t.Helper()
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: rows, Col: cols}); err != nil {
		t.Skipf("set window size: %v", err)
	}
}

// Screen collects what a terminal received; start it with go s.Read(master).
type Screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Read copies r into the screen until r fails.
func (s *Screen) Read(r io.Reader) {
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

func (s *Screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// WaitFor fails the test unless the screen shows want within five seconds.
func (s *Screen) WaitFor(t testing.TB, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(s.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("terminal never showed %q; got %q", want, s.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}
