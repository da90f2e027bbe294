package main

import (
	"os"
	"os/exec"
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

// TestReadmeFirstFindFindsASandboxCustomer: the README's first `bis find`
// is what a newcomer tries first, against the sandbox: it must find
// someone there, not answer "no submissions match".
func TestReadmeFirstFindFindsASandboxCustomer(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var email string
	for _, line := range strings.Split(string(readme), "\n") {
		if _, after, ok := strings.Cut(line, "storectl bis find --email "); ok {
			email = strings.Fields(after)[0]
			break
		}
	}
	if email == "" {
		t.Fatal("the README has no `storectl bis find --email` example")
	}
	home := t.TempDir()
	cmd := exec.Command("storectl", "--sandbox", "bis", "find", "--email", email, "-o", "json", "--jq", ".[].customer_email")
	cmd.Env = docPageEnv(home)
	cmd.Dir = home
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bis find --email %s: %v", email, err)
	}
	if strings.TrimSpace(string(out)) == "" {
		t.Errorf("the README's first bis find, --email %s, finds no sandbox customer", email)
	}
}
