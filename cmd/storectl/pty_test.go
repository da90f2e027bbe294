//go:build linux

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/iostreams/ptytest"
)

// storectlAt runs the storectl binary with its stdout and stderr on a
// terminal of rows lines and returns what the terminal showed.
func storectlAt(t *testing.T, rows uint16, env []string, args ...string) string {
	t.Helper()
	screen, err := storectlAtExit(t, rows, env, args...)
	if err != nil {
		t.Fatalf("storectl %s: %v\n%s", strings.Join(args, " "), err, screen)
	}
	return screen
}

// storectlAtExit is storectlAt for a command that may fail: the screen
// and how it ended.
func storectlAtExit(t *testing.T, rows uint16, env []string, args ...string) (string, error) {
	t.Helper()
	return storectlSized(t, rows, 100, t.TempDir(), env, args...)
}

// storectlSized is storectlAtExit on a terminal of rows and cols, with
// HOME at home (several runs may share one sandbox store).
func storectlSized(t *testing.T, rows, cols uint16, home string, env []string, args ...string) (string, error) {
	t.Helper()
	master, tty := ptytest.Open(t)
	ptytest.SetSize(t, tty, rows, cols)
	var scr ptytest.Screen
	done := make(chan struct{})
	go func() { scr.Read(master); close(done) }()

	cmd := exec.Command("storectl", args...)
	cmd.Stdout, cmd.Stderr = tty, tty
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TERM=xterm",
		"XDG_CONFIG_HOME=" + filepath.Join(home, "c"), "XDG_STATE_HOME=" + filepath.Join(home, "s"),
		"XDG_CACHE_HOME=" + filepath.Join(home, "x"), "XDG_DATA_HOME=" + filepath.Join(home, "d"),
		"DBUS_SESSION_BUS_ADDRESS=unix:path=" + filepath.Join(home, "no-dbus")}, env...)
	err := cmd.Run()
	tty.Close()
	<-done
	return strings.ReplaceAll(scr.String(), "\r\n", "\n"), err
}

// A workbook is binary: refused at a terminal, with the ways to write one;
// written into --file while the terminal watches.
func TestXLSXAtATerminal(t *testing.T) {
	screen, err := storectlAtExit(t, 40, nil, "--sandbox", "bis", "list", "-o", "xlsx")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(screen, "-o xlsx writes a binary workbook, which a terminal cannot show") ||
		!strings.Contains(screen, "`--file NAME.xlsx` where the command has it, or a redirect (`> NAME.xlsx`)") {
		t.Errorf("-o xlsx at a terminal: %v\n%s", err, screen)
	}
	file := filepath.Join(t.TempDir(), "subs.xlsx")
	screen = storectlAt(t, 40, nil, "--sandbox", "bis", "export", "--file", file)
	if data, err := os.ReadFile(file); err != nil || !strings.HasPrefix(string(data), "PK") || strings.Contains(screen, "PK") {
		t.Errorf("--file subs.xlsx at a terminal: %v\n%s", err, screen)
	}
}

// sgr is an escape that sets colour or weight.
var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

func TestTerminalPagerAndColour(t *testing.T) {
	pager := "STORECTL_PAGER=sed 's/^/paged: /'"

	// 16 lines on a 10-line terminal: paged, the header bold.
	got := storectlAt(t, 10, []string{pager}, "--sandbox", "bis", "list")
	if !strings.Contains(got, "paged: \x1b[1mID") || strings.Count(got, "paged: ") != 16 {
		t.Errorf("a long table on a terminal:\n%q", got)
	}
	// The same on a 40-line terminal fits: no pager.
	if got := storectlAt(t, 40, []string{pager}, "--sandbox", "bis", "list"); strings.Contains(got, "paged") {
		t.Errorf("a table that fits was paged:\n%q", got)
	}
	// NO_COLOR: no bold, though a spinner may still redraw its line when
	// the answer is slow; TERM=dumb: no escape at all.
	for env, refused := range map[string]*regexp.Regexp{"NO_COLOR=1": sgr, "TERM=dumb": regexp.MustCompile(`\x1b\[`)} {
		if got := storectlAt(t, 40, []string{env}, "--sandbox", "bis", "list"); refused.MatchString(got) {
			t.Errorf("%s: escapes on the terminal:\n%q", env, got)
		}
	}
	// JSON on a colour terminal is coloured, and never paged.
	got = storectlAt(t, 10, []string{pager}, "--sandbox", "bis", "list", "-o", "json")
	if !strings.Contains(got, "\x1b[1;34m\"id\"\x1b[m") || strings.Contains(got, "paged") {
		t.Errorf("JSON on a terminal:\n%.400q", got)
	}
}

func TestPipedOutputIsNeverPagedNorColoured(t *testing.T) {
	cmd := exec.Command("storectl", "--sandbox", "bis", "list")
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_STATE_HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_CACHE_HOME="+home,
		"NO_COLOR=", "STORECTL_PAGER=sed 's/^/paged: /'")
	out, err := cmd.Output()
	if err != nil || strings.Contains(string(out), "paged") || strings.Contains(string(out), "\x1b") {
		t.Errorf("piped: %v\n%q", err, out)
	}
}

// A first watch reads every page of a new mirror: on a terminal it shows
// its progress as bis export does, page n/N with an ETA (issue 37), and
// clears the line when the sync is over.
func TestFirstWatchShowsProgress(t *testing.T) {
	dir := t.TempDir()
	urlFile := filepath.Join(dir, "url")
	serve := exec.Command("storectl", "sandbox", "serve", "--memory", "--addr", "127.0.0.1:0", "--url-file", urlFile, "--throttle", "0")
	serve.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = serve.Process.Kill(); _ = serve.Wait() }()
	var base []byte
	for range 200 {
		if base, _ = os.ReadFile(urlFile); len(base) > 0 {
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	// Paced to 10 requests a second, the 22 pages take long enough for the
	// progress line to show.
	env := []string{"TZ=UTC", "NO_COLOR=1", "STORECTL_BASE_URL=" + strings.TrimSpace(string(base)),
		"STORECTL_SHOP_TOKEN=shop_sandbox_demo", "STORECTL_RATE_LIMIT=10/1s"}
	screen, err := storectlSized(t, 40, 100, t.TempDir(), env, "watch", "bis", "--once")
	if err != nil {
		t.Fatalf("%v\n%s", err, screen)
	}
	if !regexp.MustCompile(`submissions: page \d+/22`).MatchString(screen) {
		t.Errorf("a first watch at a terminal shows no progress:\n%q", screen)
	}
	if !strings.Contains(screen, "first watch of this list") {
		t.Errorf("the first watch is not said:\n%q", screen)
	}
}
