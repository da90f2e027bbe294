package helptopic

import (
	"strings"

	"github.com/spf13/cobra"
)

// helpWidth is the width help text is wrapped to.
const helpWidth = 80

// Render lays groups out for a terminal: each title on a line of its own,
// then the entries indented, names longer than nameWidth on a line of
// their own with the text below, shorter ones in a column beside it.
func Render(groups []Group, nameWidth int) string {
	var b strings.Builder
	for i, g := range groups {
		if i > 0 {
			b.WriteString("\n")
		}
		if g.Title != "" {
			b.WriteString(g.Title + "\n\n")
		}
		for _, e := range g.Entries {
			textIndent := 2 + nameWidth + 2
			if len(e.Name) > nameWidth {
				textIndent = 6
				b.WriteString("  " + e.Name + "\n")
				b.WriteString(wrap(e.Text, textIndent, ""))
			} else {
				first := "  " + e.Name + strings.Repeat(" ", textIndent-2-len(e.Name))
				b.WriteString(wrap(e.Text, textIndent, first))
			}
			for _, line := range e.Lines {
				b.WriteString(strings.Repeat(" ", textIndent+2) + line + "\n")
			}
		}
	}
	return b.String()
}

// wrap fills text into lines of at most helpWidth, each indented by indent
// spaces except the first, which starts with first when it is given.
func wrap(text string, indent int, first string) string {
	var b strings.Builder
	pad := strings.Repeat(" ", indent)
	line := first
	if line == "" {
		line = pad
	}
	empty := true
	for _, word := range strings.Fields(text) {
		if !empty && len(line)+1+len(word) > helpWidth {
			b.WriteString(line + "\n")
			line, empty = pad, true
		}
		if !empty {
			line += " "
		}
		line += word
		empty = false
	}
	b.WriteString(line + "\n")
	return b.String()
}

// EnvironmentHelp is the text of `storectl help environment`.
func EnvironmentHelp() string {
	files := Group{Title: "Files", Entries: Files()[0].Entries}
	return strings.TrimRight(wrap("Environment variables storectl reads. "+EnvironmentIntro, 0, ""), "\n") +
		"\n\n" + strings.TrimRight(Render(append(Environment(), files), 0), "\n")
}

// ExitCodesHelp is the exit code table of the root command's help.
func ExitCodesHelp() string {
	return "Exit codes:\n" + strings.TrimRight(Render(ExitStatus(), 8), "\n")
}

// NewEnvironmentCmd is `storectl help environment`: a help topic (no Run),
// as `gh help environment`.
func NewEnvironmentCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "environment",
		Short: "Environment variables that change what storectl does",
	}
	markLong(cmd, longIsEnvironment)
	return cmd
}
