//go:build unix

package watch

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCommandGetsTheEvent(t *testing.T) {
	var out bytes.Buffer
	c := NewCommand(`read -r line; printf '%s|%s|%s' "$STORECTL_EVENT_TYPE" "$STORECTL_EVENT_ID" "$line"`, 5*time.Second, &out, &out)
	if err := c.Deliver(context.Background(), Delivery{ID: "evt_9", Type: "submission.sent", Body: []byte(`{"a":1}`)}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != `submission.sent|evt_9|{"a":1}` {
		t.Fatalf("the command saw %q", got)
	}
}

func TestCommandFailures(t *testing.T) {
	var out bytes.Buffer
	err := NewCommand("exit 3", 5*time.Second, &out, &out).Deliver(context.Background(), Delivery{Body: []byte("{}")})
	if err == nil || err.Error() != "exited with status 3" {
		t.Fatalf("exit 3: %v", err)
	}
	// A command that outlasts its timeout is stopped, with what it started.
	marker := filepath.Join(t.TempDir(), "late")
	start := time.Now()
	err = NewCommand("(sleep 2; touch "+marker+") & sleep 30", 200*time.Millisecond, &out, &out).
		Deliver(context.Background(), Delivery{Body: []byte("{}")})
	if err == nil || !strings.Contains(err.Error(), "did not finish within 200ms") {
		t.Fatalf("timeout: %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("the timeout took %v", took)
	}
	time.Sleep(2500 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a child of the timed-out command lived on")
	}
}
