package httpx

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The state is rewritten in place: a process killed after writing the new
// state and before cutting the file to its length leaves the old state's
// end behind it, and the next update reads the new state, then writes a
// whole one.
func TestPaceStateSurvivesACutShortRewrite(t *testing.T) {
	dir := t.TempDir()
	fs, err := newFileStore(dir, uniqueToken(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := fs.update(ctx, func(p *paceState) { p.ServerLimit = 20 }); err != nil {
		t.Fatal(err)
	}
	whole, err := os.ReadFile(fs.path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fs.path, append(whole, `,"slots":[{"at":1}],"server_limit":999999}`...), 0o600); err != nil {
		t.Fatal(err)
	}
	var seen paceState
	if err := fs.update(ctx, func(p *paceState) { seen = *p; p.ServerLimit = 25 }); err != nil {
		t.Fatal(err)
	}
	if seen.ServerLimit != 20 {
		t.Errorf("read %d after a cut-short rewrite, want the state written whole (20)", seen.ServerLimit)
	}
	if err := fs.update(ctx, func(p *paceState) { seen = *p }); err != nil || seen.ServerLimit != 25 {
		t.Errorf("the next write: %d, %v", seen.ServerLimit, err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(fs.path)); len(entries) > 3 {
		t.Errorf("the pacing directory holds more than the key, the state and its lock: %v", entries)
	}
}
