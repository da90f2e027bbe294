//go:build keyring

package credentials

import (
	"errors"
	"testing"
	"time"
)

// TestRealKeyring needs a real Secret Service (CI runs it under
// dbus-run-session with an unlocked gnome-keyring-daemon).
func TestRealKeyring(t *testing.T) {
	k := NewOSKeyring(10 * time.Second)
	account := "storectl-integration-test:shop"
	if err := k.Set(account, "secret-value"); err != nil {
		t.Fatalf("Set: %v", err)
	}
	got, err := k.Get(account)
	if err != nil || got != "secret-value" {
		t.Fatalf("Get = %q, %v", got, err)
	}
	if err := k.Delete(account); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := k.Get(account); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after Delete: %v", err)
	}
}
