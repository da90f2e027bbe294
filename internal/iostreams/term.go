package iostreams

// ColorEnabled decides whether colour and bold escapes may go to stdout,
// by go-gh's pkg/term rules plus TERM=dumb:
//
//   - CLICOLOR_FORCE set to anything but "" or "0": colour, even into a
//     pipe or a file (for `less -R` and CI logs that render colour);
//   - else NO_COLOR set and non-empty (no-color.org), CLICOLOR=0 or
//     TERM=dumb: no colour;
//   - else colour exactly when stdout is a terminal that takes escapes
//     (vt: a terminal, and on Windows one switched to virtual-terminal
//     processing).
func ColorEnabled(getenv func(string) string, vt bool) bool {
	if colorForced(getenv) {
		return true
	}
	if colorDisabled(getenv) {
		return false
	}
	return vt
}

func colorForced(getenv func(string) string) bool {
	v := getenv("CLICOLOR_FORCE")
	return v != "" && v != "0"
}

func colorDisabled(getenv func(string) string) bool {
	return getenv("NO_COLOR") != "" || getenv("CLICOLOR") == "0" || dumbTerminal(getenv)
}

// dumbTerminal is TERM=dumb: a terminal (Emacs shell, some CI consoles)
// that shows escapes as text.
func dumbTerminal(getenv func(string) string) bool { return getenv("TERM") == "dumb" }
