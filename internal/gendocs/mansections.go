package main

import (
	"bytes"
	"strings"

	"github.com/storectl/storectl/internal/cli/helptopic"
)

// manSections are the sections every man page gets beyond cobra's (which
// stops at OPTIONS, EXAMPLE and SEE ALSO), in the order man-pages(7) gives:
// the root page has them in full; a command's page has its exit codes and
// points to storectl(1) for the rest.
func manSections(root bool) []byte {
	var b bytes.Buffer
	b.WriteString(".SH EXIT STATUS\n")
	roffGroups(&b, helptopic.ExitStatus())
	if !root {
		b.WriteString(".SH ENVIRONMENT\n.PP\nSee \\fBstorectl(1)\\fP or \\fBstorectl help environment\\fP; the files storectl keeps are in \\fBstorectl(1)\\fP under FILES.\n\n")
		return b.Bytes()
	}
	b.WriteString(".SH ENVIRONMENT\n.PP\n" + roffEscape(helptopic.EnvironmentIntro) + "\n")
	roffGroups(&b, helptopic.Environment())
	b.WriteString(".SH FILES\n")
	roffGroups(&b, helptopic.Files())
	return b.Bytes()
}

// withManSections puts the sections in a page cobra rendered, before SEE
// ALSO (or at the end of a page without it).
func withManSections(page []byte, root bool) []byte {
	extra := manSections(root)
	at := bytes.Index(page, []byte("\n.SH SEE ALSO\n"))
	if at < 0 {
		return append(page, extra...)
	}
	at++
	out := make([]byte, 0, len(page)+len(extra))
	out = append(out, page[:at]...)
	out = append(out, extra...)
	return append(out, page[at:]...)
}

func roffGroups(b *bytes.Buffer, groups []helptopic.Group) {
	for _, g := range groups {
		if g.Title != "" {
			b.WriteString(".SS " + roffEscape(g.Title) + "\n")
		}
		for _, e := range g.Entries {
			b.WriteString(".TP\n\\fB" + roffEscape(e.Name) + "\\fR\n" + roffEscape(e.Text) + "\n")
			if len(e.Lines) > 0 {
				b.WriteString(".RS\n.nf\n")
				for _, line := range e.Lines {
					b.WriteString(roffEscape(line) + "\n")
				}
				b.WriteString(".fi\n.RE\n")
			}
		}
	}
	b.WriteString("\n")
}

// roffEscape keeps text literal in roff: backslashes, and a dot or quote
// that would start a request at the beginning of a line.
func roffEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
