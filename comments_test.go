package storectl_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// measuredFigure is how a comment quotes what a past run measured: a
// time in milliseconds or microseconds, a before → after, a median, a
// ratio. Such a figure goes stale while the comment stays; the comment
// says why, and docs/benchmarks.md holds the current figures.
var measuredFigure = regexp.MustCompile(`\b[0-9]+(\.[0-9]+)? ?(ms|µs)\b|[1-9][0-9.,]* ?(ms|s|µs|MiB|KiB|MB|faults)? ?(→|->) ?[0-9]|\bmedians? of [0-9]|[0-9]+(\.[0-9]+)?× `)

// TestCommentsQuoteNoMeasuredFigures: no comment in the product's code
// (tests aside: a benchmark may say what it measures) quotes a timing.
func TestCommentsQuoteNoMeasuredFigures(t *testing.T) {
	for _, dir := range []string{"cmd", "internal"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			for _, group := range file.Comments {
				for _, c := range group.List {
					if m := measuredFigure.FindString(c.Text); m != "" {
						t.Errorf("%s: a comment quotes a measured figure (%q): say why, and leave the figure to docs/benchmarks.md", fset.Position(c.Pos()), m)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
