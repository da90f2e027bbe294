package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gofrs/flock"

	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/fsutil"
	"github.com/storectl/storectl/internal/mirror/sqlite"
)

// profileLock is a profile's one watcher: a lock file beside its mirror,
// holding the watcher's pid, released by the system when the process ends
// however it ends.
type profileLock struct{ lock *flock.Flock }

func lockProfile(s *config.Settings) (*profileLock, error) {
	// Beside the local file even when the mirror is the team's: one watch
	// per profile on this machine, whichever backend it writes.
	mirrorPath, err := mirrorutil.SQLitePath(s.Profile, s.Sandbox)
	if err != nil {
		return nil, err
	}
	path := mirrorPath + ".watch"
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, mirrorutil.MirrorError(sqlite.FileRefused(mirrorPath, fmt.Errorf("cannot create the mirror's directory: %w", err)))
	}
	l := flock.New(path, flock.SetPermissions(0o600))
	ok, err := l.TryLock()
	if err != nil {
		return nil, mirrorutil.MirrorError(sqlite.FileRefused(mirrorPath, fmt.Errorf("cannot lock %s: %w", path, err)))
	}
	if !ok {
		return nil, heldBy(s.Profile, path)
	}
	// The pid goes in after the lock is taken, for the next one to name.
	if err := fsutil.WriteFileAtomic(path+".pid", []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600); err != nil {
		_ = l.Unlock()
		return nil, err
	}
	return &profileLock{lock: l}, nil
}

// heldBy names the watcher that holds a profile.
func heldBy(profile, path string) error {
	who := "another storectl watch"
	if b, err := os.ReadFile(path + ".pid"); err == nil {
		if pid := strings.TrimSpace(string(b)); pid != "" {
			who += " (pid " + pid + ")"
		}
	}
	return exitcode.UsageHint(fmt.Errorf("%s is already watching profile %q: one watch per profile", who, profile),
		"stop it first (it stops cleanly on Ctrl-C or SIGTERM), or watch another profile with --profile NAME")
}

func (p *profileLock) release() { _ = p.lock.Unlock() }
