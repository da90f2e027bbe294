package iostreams

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// defaultPager is used when neither STORECTL_PAGER, the pager key nor
// $PAGER names one and less is installed: -F quits when the text fits one
// screen, -R shows the bold header, -X leaves the text on the screen.
const defaultPager = "less -FRX"

// PagerCommand is the pager for long output: configured (STORECTL_PAGER,
// else the profile's pager key), else $PAGER, else defaultPager where less
// is on the PATH. "" means none; so does "cat", the usual way to turn a
// pager off.
func PagerCommand(configured string, getenv func(string) string, lookPath func(string) (string, error)) string {
	cmd := strings.TrimSpace(configured)
	if cmd == "" {
		cmd = strings.TrimSpace(getenv("PAGER"))
	}
	if cmd == "" {
		if _, err := lookPath("less"); err == nil {
			cmd = defaultPager
		}
	}
	if cmd == "cat" {
		return ""
	}
	return cmd
}

// ShouldPage reports whether text goes through a pager: only on a terminal
// of known height, and only when the text would not fit on one screen
// (counting the shell prompt that follows it). Output to a pipe or a file
// is never paged.
func (s *IOStreams) ShouldPage(text []byte) bool {
	return s.OutTTY && s.TermHeight > 0 && bytes.Count(text, []byte("\n")) >= s.TermHeight
}

// Page writes text to stdout, through the pager when ShouldPage says so
// and PagerCommand(configured, …) names one. A pager that cannot start is
// reported once on stderr and the text is printed as is; one the person
// quits early (q in less) is no error.
func (s *IOStreams) Page(text []byte, configured string) error {
	if !s.ShouldPage(text) {
		_, err := s.Out.Write(text)
		return err
	}
	command := PagerCommand(configured, os.Getenv, exec.LookPath)
	if command == "" {
		_, err := s.Out.Write(text)
		return err
	}
	cmd := pagerProcess(command)
	cmd.Stdin = bytes.NewReader(text)
	cmd.Stdout = s.Out
	cmd.Stderr = s.ErrOut
	cmd.Env = pagerEnv(os.Environ())
	err := cmd.Start()
	if err == nil {
		err = cmd.Wait()
		// Any exit status but the shell's "command not found" is the
		// person's business (q, Ctrl-C).
		if exit, ok := err.(*exec.ExitError); ok && exit.ExitCode() != 127 {
			err = nil
		}
	}
	if err != nil {
		fmt.Fprintf(s.ErrOut, "storectl: cannot run the pager %q (%v); set STORECTL_PAGER=cat to turn paging off\n", command, err)
		_, err := s.Out.Write(text)
		return err
	}
	return nil
}

// pagerProcess runs the command through the shell, as git runs core.pager,
// so that quoting and arguments work; Windows has no sh, so the words are
// run directly.
func pagerProcess(command string) *exec.Cmd {
	if runtime.GOOS == "windows" {
		words := strings.Fields(command)
		return exec.Command(words[0], words[1:]...)
	}
	return exec.Command("sh", "-c", command)
}

// pagerEnv gives less (and lv) what they need to show colour and to quit
// on short text, unless the person has their own settings.
func pagerEnv(env []string) []string {
	has := func(name string) bool {
		for _, kv := range env {
			if strings.HasPrefix(kv, name+"=") {
				return true
			}
		}
		return false
	}
	if !has("LESS") {
		env = append(env, "LESS=FRX")
	}
	if !has("LV") {
		env = append(env, "LV=-c")
	}
	return env
}
