//go:build !windows

package iostreams

import "os"

// enableVirtualTerminal: terminals outside Windows take escapes as they are.
func enableVirtualTerminal(*os.File) bool { return true }
