package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMakeBuildStampsTheCommit: a binary built by `make build` in a clone
// says its commit, as one from `go install` does, even where GOFLAGS turns
// VCS stamping off (as on machines that set -buildvcs=false for CI).
func TestMakeBuildStampsTheCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds storectl")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	head, err := exec.Command("git", "-C", "../..", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git clone: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "storectl")
	make := exec.Command("make", "-C", "../..", "build", "BIN="+bin)
	make.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
	if out, err := make.CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "(commit " + strings.TrimSpace(string(head)); !strings.Contains(string(out), want) {
		t.Errorf("make build's storectl --version: %s, want it to name %s)", out, want)
	}
}
