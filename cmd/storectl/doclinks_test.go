package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// Pages are read in one sitting (issue 39): a guide of docs/ holds at most
// maxGuideLines lines, and the benchmarks page, which holds only the
// current figures (their history is in git), at most maxBenchmarksLines.
const (
	maxGuideLines      = 500
	maxBenchmarksLines = 400
)

// TestDocsPagesAreShortEnoughToRead fails when a guide grows into a lab
// notebook: split it (a guide and a reference, as mirror.md and
// mirror-reference.md), or move superseded figures out of benchmarks.md.
func TestDocsPagesAreShortEnoughToRead(t *testing.T) {
	for _, path := range docPages(t) {
		name := strings.TrimPrefix(path, "../../")
		limit := maxGuideLines
		if name == "docs/benchmarks.md" {
			limit = maxBenchmarksLines
		}
		if n := lineCount(t, path); n > limit {
			t.Errorf("%s has %d lines, more than the %d a page may have: split it or cut what is superseded", name, n, limit)
		}
	}
}

func lineCount(t *testing.T, path string) int {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(text), "\n")
}

// TestDocsLinksResolve checks every relative link of the README and the
// guides: its file exists, and a #fragment names a heading of that page
// (as GitHub makes anchors from headings), so that moving a section cannot
// leave a link pointing at nothing.
func TestDocsLinksResolve(t *testing.T) {
	anchors := map[string]map[string]bool{} // page path → its anchors
	anchorsOf := func(path string) map[string]bool {
		if _, ok := anchors[path]; !ok {
			text, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			anchors[path] = headingAnchors(string(text))
		}
		return anchors[path]
	}
	checked := 0
	for _, path := range docPages(t) {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(path, "../../")
		for _, l := range markdownLinks(string(text)) {
			file, fragment, _ := strings.Cut(l.target, "#")
			target := path
			if file != "" {
				target = filepath.Join(filepath.Dir(path), filepath.FromSlash(file))
				if _, err := os.Stat(target); err != nil {
					t.Errorf("%s:%d: link to %s: no such file", name, l.line, l.target)
					continue
				}
			}
			checked++
			if fragment == "" || !strings.HasSuffix(target, ".md") {
				continue
			}
			if !anchorsOf(target)[fragment] {
				t.Errorf("%s:%d: link to %s: %s has no heading whose anchor is #%s", name, l.line, l.target, strings.TrimPrefix(target, "../../"), fragment)
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d relative links found in the docs: is markdownLinks still reading them?", checked)
	}
}

// TestHelpTextNamesDocsThatExist checks that every docs/… page a help text,
// message or comment of the code names exists, so that a page renamed or
// split is renamed in the code too.
func TestHelpTextNamesDocsThatExist(t *testing.T) {
	named := regexp.MustCompile(`docs/[A-Za-z0-9_./-]+\.md`)
	found := 0
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(text), "\n") {
			for _, page := range named.FindAllString(line, -1) {
				found++
				if _, err := os.Stat(filepath.Join("../..", page)); err != nil {
					t.Errorf("%s:%d names %s, which does not exist", strings.TrimPrefix(path, "../../"), i+1, page)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Error("no docs/… page named in the code: is the pattern still right?")
	}
}

// A docLink is a relative link of a page: [text](target).
type docLink struct {
	line   int
	target string
}

// inlineLink is an inline link or image; the target ends at the first
// space (a title may follow) or closing parenthesis.
var inlineLink = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)[^)]*\)`)

// markdownLinks returns the relative links of a page outside its fenced
// blocks and code spans: not those with a scheme (https:, mailto:).
func markdownLinks(page string) []docLink {
	var links []docLink
	inFence := false
	scanner := bufio.NewScanner(strings.NewReader(page))
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; scanner.Scan(); n++ {
		line := scanner.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		for _, m := range inlineLink.FindAllStringSubmatch(withoutCodeSpans(line), -1) {
			target := strings.Trim(m[1], "<>")
			if strings.Contains(target, ":") {
				continue
			}
			links = append(links, docLink{line: n, target: target})
		}
	}
	return links
}

// withoutCodeSpans blanks the `code spans` of a line, whose brackets are
// not links.
func withoutCodeSpans(line string) string {
	parts := strings.Split(line, "`")
	for i := 1; i < len(parts); i += 2 {
		parts[i] = ""
	}
	return strings.Join(parts, "``")
}

// headingAnchors returns the anchors GitHub makes of a page's ATX headings:
// the heading's text (its code spans' text, a link's text) lowercased,
// everything but letters, digits, marks, '_', '-' and spaces dropped,
// spaces made '-'; a repeated anchor gets -1, -2, ….
func headingAnchors(page string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	inFence := false
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimLeft(line, "#")
		if text == "" || text[0] != ' ' {
			continue
		}
		anchor := githubAnchor(text)
		if n := seen[anchor]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", anchor, n)] = true
		} else {
			anchors[anchor] = true
		}
		seen[anchor]++
	}
	return anchors
}

var linkText = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)

func githubAnchor(heading string) string {
	heading = linkText.ReplaceAllString(strings.TrimSpace(heading), "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestGithubAnchor(t *testing.T) {
	for heading, want := range map[string]string{
		"Starting over: `mirror reset`":                             "starting-over-mirror-reset",
		"Answers from the mirror, and how fresh they are":           "answers-from-the-mirror-and-how-fresh-they-are",
		"`report_tally`":                                            "report_tally",
		"The page (`--html`)":                                       "the-page---html",
		"make bench end to end (26 November 2026, 07:03–07:22 UTC)": "make-bench-end-to-end-26-november-2026-07030722-utc",
		"Cells that start with `=`, `+`, `-` or `@`":                "cells-that-start-with-----or-",
	} {
		if got := githubAnchor(heading); got != want {
			t.Errorf("githubAnchor(%q) = %q, want %q", heading, got, want)
		}
	}
}
