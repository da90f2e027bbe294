// Command gendocs writes storectl's generated files: the markdown command
// reference (docs/reference), the man pages (docs/man) and the shell
// completion scripts (completions). Run it from the repository root after
// changing any command, flag or help text:
//
//	go run ./internal/gendocs          # write the files
//	go run ./internal/gendocs -check   # only report what is out of date
//
// The test in this package fails while the committed files differ from what
// it would write.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	fl := flag.NewFlagSet("gendocs", flag.ContinueOnError)
	repo := fl.String("dir", ".", "repository `root` to write into")
	check := fl.Bool("check", false, "report out-of-date files and fail instead of writing them")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(*repo, "go.mod")); err != nil {
		return fmt.Errorf("%s is not the repository root (no go.mod): run from there or pass -dir", *repo)
	}
	files, err := Files(Tree())
	if err != nil {
		return err
	}
	if *check {
		changes, err := Diff(files, *repo)
		if err != nil {
			return err
		}
		if len(changes) > 0 {
			return errors.New(staleReport(changes))
		}
		fmt.Fprintf(out, "%d generated files are up to date\n", len(files))
		return nil
	}
	changes, err := Write(files, *repo)
	if err != nil {
		return err
	}
	for _, c := range changes {
		verb := "wrote"
		if c.Kind == "stale" {
			verb = "removed"
		}
		fmt.Fprintf(out, "%s %s\n", verb, c.Path)
	}
	fmt.Fprintf(out, "%d generated files, %d changed\n", len(files), len(changes))
	return nil
}
