//go:build windows

package iostreams

import (
	"os"

	"golang.org/x/sys/windows"
)

// enableVirtualTerminal switches a Windows console to interpreting escape
// sequences (Windows 10 and later). On a console that refuses, storectl
// prints no escapes there.
func enableVirtualTerminal(f *os.File) bool {
	h := windows.Handle(f.Fd())
	var mode uint32
	if err := windows.GetConsoleMode(h, &mode); err != nil {
		return false
	}
	if mode&windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING != 0 {
		return true
	}
	return windows.SetConsoleMode(h, mode|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING) == nil
}
