package main

import (
	"testing"
)

// TestGeneratedFilesAreCurrent fails while the committed reference, man
// pages or completion scripts differ from what the command tree generates:
// change a command or its help, and this names the files to regenerate.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	files, err := Files(Tree())
	if err != nil {
		t.Fatal(err)
	}
	changes, err := Diff(files, "../..")
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) > 0 {
		t.Fatal(staleReport(changes))
	}
}
