package main

import (
	"regexp"
	"strings"
)

// alignedLine matches text laid out in columns: indented, or with a run of
// spaces between words (tables of exit codes, "label:  value" lists), but
// not the two spaces some writers put after a full stop.
var alignedLine = regexp.MustCompile(`^[ \t]+\S|[^\s.] {2,}\S`)

// preformat fences every paragraph of a help text whose lines are aligned in
// columns, so that markdown and man keep the layout `--help` shows instead of
// flowing the lines into one. Prose paragraphs are left to flow.
func preformat(long string) string {
	if long == "" {
		return long
	}
	paragraphs := strings.Split(long, "\n\n")
	for i, p := range paragraphs {
		if strings.HasPrefix(p, "```") {
			continue
		}
		for _, line := range strings.Split(p, "\n") {
			if alignedLine.MatchString(line) {
				paragraphs[i] = "```\n" + strings.TrimRight(p, "\n") + "\n```"
				break
			}
		}
	}
	return strings.Join(paragraphs, "\n\n")
}
