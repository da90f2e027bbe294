package mirror

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/storectl/storectl/internal/cli/clitest"
)

func writeDamaged(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("customer_email\nzoe@example.com\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// mirrorFile is where the test profile's mirror is: its SQLite file.
func mirrorFile(t *testing.T, e *clitest.Env) string {
	t.Helper()
	_, path, err := locate(e.Settings)
	if err != nil {
		t.Fatal(err)
	}
	return path
}
