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

// A command that exits 0 but leaves a child in the background holding its
// output open has delivered: it is not reported as timed out or failed,
// so the event is not run again (issue 37).
func TestCommandLeavingABackgroundChild(t *testing.T) {
	var out bytes.Buffer
	for _, timeout := range []time.Duration{time.Second, 30 * time.Second} {
		err := NewCommand("(sleep 4; echo late) & echo sent", timeout, &out, &out).
			Deliver(context.Background(), Delivery{Body: []byte("{}")})
		if err != nil {
			t.Fatalf("timeout %s: %v", timeout, err)
		}
	}
	if !strings.HasPrefix(out.String(), "sent\n") {
		t.Fatalf("the command printed %q", out.String())
	}
}

// The command's environment holds none of storectl's secrets: the stores'
// tokens, the webhook secret, the mirror's URL, PostgreSQL's password.
func TestCommandGetsNoSecrets(t *testing.T) {
	secrets := map[string]string{
		"STORECTL_SHOP_TOKEN": "shop_tok", "STORECTL_CATALOG_TOKEN": "sfs_tok", "STORECTL_WEBHOOK_SECRET": "whsec_x",
		"STORECTL_MIRROR_URL": "postgres://u:pw@db/storectl", "PGPASSWORD": "pgpw",
	}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	t.Setenv("STORECTL_PROFILE", "kept")
	var out bytes.Buffer
	if err := NewCommand("env", 5*time.Second, &out, &out).Deliver(context.Background(), Delivery{ID: "evt_1", Type: "t", Body: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	for k, v := range secrets {
		if strings.Contains(out.String(), k+"=") || strings.Contains(out.String(), v) {
			t.Errorf("the command's environment holds %s", k)
		}
	}
	if !strings.Contains(out.String(), "STORECTL_PROFILE=kept") || !strings.Contains(out.String(), "STORECTL_EVENT_ID=evt_1") {
		t.Errorf("the command lost its other variables:\n%s", out.String())
	}
}
