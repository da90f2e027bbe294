package main

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeInstallPutsStorectlOnThePath: a newcomer who copies the
// install line must end with a storectl their shell finds.
func TestReadmeInstallPutsStorectlOnThePath(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, install, _ := strings.Cut(string(readme), "## Install")
	install, _, _ = strings.Cut(install, "\n## ")
	for _, want := range []string{"go install ./cmd/storectl", `export PATH="$(go env GOPATH)/bin:$PATH"`, "$GOBIN", "~/go/bin"} {
		if !strings.Contains(install, want) {
			t.Errorf("README's Install section lacks %q", want)
		}
	}
}
