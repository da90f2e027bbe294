package mirror

import (
	"os"
	"path/filepath"
	"testing"
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
