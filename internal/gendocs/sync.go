package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Change is one file on disk that differs from what the generator writes.
type Change struct {
	Path string // relative to the repository root, with forward slashes
	Kind string // "missing", "differs" or "stale"
}

func (c Change) String() string {
	switch c.Kind {
	case "missing":
		return c.Path + " is missing"
	case "stale":
		return c.Path + " is no longer generated"
	}
	return c.Path + " is out of date"
}

// Diff compares the generated files with the tree under repo, including
// files in the owned directories that the generator would delete.
func Diff(files map[string][]byte, repo string) ([]Change, error) {
	var changes []Change
	for _, rel := range sortedKeys(files) {
		have, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(rel)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			changes = append(changes, Change{rel, "missing"})
		case err != nil:
			return nil, err
		case !bytes.Equal(have, files[rel]):
			changes = append(changes, Change{rel, "differs"})
		}
	}
	extra, err := strayFiles(files, repo)
	if err != nil {
		return nil, err
	}
	for _, rel := range extra {
		changes = append(changes, Change{rel, "stale"})
	}
	return changes, nil
}

// Write brings the tree under repo in line with files: it writes what
// changed and removes what is no longer generated, leaving identical files
// untouched so their timestamps do not move.
func Write(files map[string][]byte, repo string) ([]Change, error) {
	changes, err := Diff(files, repo)
	if err != nil {
		return nil, err
	}
	for _, c := range changes {
		full := filepath.Join(repo, filepath.FromSlash(c.Path))
		if c.Kind == "stale" {
			if err := os.Remove(full); err != nil {
				return nil, err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(full, files[c.Path], 0o644); err != nil {
			return nil, err
		}
	}
	return changes, nil
}

// strayFiles lists the files in the owned directories that files does not
// hold.
func strayFiles(files map[string][]byte, repo string) ([]string, error) {
	var extra []string
	for _, dir := range ownedDirs {
		root := filepath.Join(repo, filepath.FromSlash(dir))
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) && p == root {
				return filepath.SkipDir
			}
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(repo, p)
			if err != nil {
				return err
			}
			if rel = filepath.ToSlash(rel); files[rel] == nil {
				extra = append(extra, rel)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.Sort(extra)
	return extra, nil
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// staleReport is the message for a tree whose generated files are behind.
func staleReport(changes []Change) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d generated file(s) do not match the command tree:\n", len(changes))
	for _, c := range changes {
		fmt.Fprintf(&b, "  %s\n", c)
	}
	b.WriteString(regenerateHint)
	return b.String()
}
