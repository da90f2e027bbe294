//go:build linux

package iostreams

import (
	"os"
	"testing"

	"github.com/storectl/storectl/internal/iostreams/ptytest"
)

func TestFromFilesOnATerminal(t *testing.T) {
	_, tty := ptytest.Open(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()

	ios := fromFiles(tty, tty, tty, envOf(map[string]string{"TERM": "xterm"}))
	if !ios.OutTTY || !ios.ColorEnabled || !ios.ErrRedraw || ios.TermWidth != 80 || ios.TermHeight != 24 {
		t.Errorf("terminal: %+v", ios)
	}
	ios = fromFiles(tty, tty, tty, envOf(map[string]string{"TERM": "dumb"}))
	if !ios.OutTTY || ios.ColorEnabled || ios.ErrRedraw {
		t.Errorf("TERM=dumb: colour %v, spinner %v; want neither", ios.ColorEnabled, ios.ErrRedraw)
	}
	ios = fromFiles(tty, tty, tty, envOf(map[string]string{"NO_COLOR": "1"}))
	if ios.ColorEnabled || !ios.ErrRedraw {
		t.Errorf("NO_COLOR: colour %v, spinner %v; want no colour, a spinner", ios.ColorEnabled, ios.ErrRedraw)
	}
	ios = fromFiles(tty, w, w, envOf(map[string]string{"CLICOLOR_FORCE": "1"}))
	if ios.OutTTY || !ios.ColorEnabled || ios.ErrRedraw || ios.TermWidth != 0 {
		t.Errorf("CLICOLOR_FORCE into a pipe: %+v", ios)
	}
	ios = fromFiles(tty, w, w, envOf(nil))
	if ios.OutTTY || ios.ColorEnabled {
		t.Errorf("pipe: %+v", ios)
	}
}
