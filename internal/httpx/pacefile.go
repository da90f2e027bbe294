package httpx

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/storectl/storectl/internal/fsutil"
)

const (
	// lockWait bounds the wait for another process's lock, which is only
	// ever held for a read and a write; past it the file is deemed unusable.
	lockWait     = 10 * time.Second
	lockRetry    = 5 * time.Millisecond
	maxStateSize = 4 << 20
	// keyFile holds the install's random key that names the state files.
	keyFile = "key"
)

// tokenKey names a token's state within this process (the in-memory
// window), never on disk.
func tokenKey(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// stateName names a token's state file: an HMAC of the token under the
// install's random key. A bare hash would let anyone who can list the
// directory test a guessed token offline; without the key (mode 0600) the
// name says nothing.
func stateName(key []byte, token string) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(token))
	return "token-" + hex.EncodeToString(mac.Sum(nil))
}

// installKey returns the key in dir, creating it on first use. The first
// process to create it also removes the state files named by the bare
// SHA-256 of earlier versions (pace-*.json, pace-*.lock): they are
// abandoned, and their names give a token away to a guess.
func installKey(dir string) ([]byte, error) {
	path := filepath.Join(dir, keyFile)
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	created, err := fsutil.CreateOnce(path, []byte(hex.EncodeToString(key)+"\n"), 0o600)
	if err != nil {
		return nil, err
	}
	if created {
		removeUnkeyedState(dir)
		return key, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	key, err = hex.DecodeString(string(bytes.TrimSpace(data)))
	if err != nil || len(key) < 16 {
		return nil, fmt.Errorf("%s is not a pacing key: remove it and run again", path)
	}
	return key, nil
}

func removeUnkeyedState(dir string) {
	for _, pattern := range []string{"pace-*.json", "pace-*.lock"} {
		old, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, name := range old {
			_ = os.Remove(name)
		}
	}
}

// fileStore keeps a token's window in a small JSON file that every storectl
// process on the machine reads and writes under a file lock.
type fileStore struct {
	// mu excludes this process's goroutines: on some systems a file lock
	// is held per process and would not.
	mu    sync.Mutex
	path  string
	flock *flock.Flock
}

func newFileStore(dir, token string) (*fileStore, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create pacing directory: %w", err)
	}
	key, err := installKey(dir)
	if err != nil {
		return nil, fmt.Errorf("pacing key: %w", err)
	}
	base := filepath.Join(dir, stateName(key, token))
	return &fileStore{path: base + ".json", flock: flock.New(base + ".lock")}, nil
}

// update runs fn on the stored state under the lock, and writes the state
// back only when fn changed it: a look at the window (an ETA, a wait that
// found no room) costs a read, not a write.
func (s *fileStore) update(ctx context.Context, fn func(*paceState)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	lockCtx, cancel := context.WithTimeout(ctx, lockWait)
	defer cancel()
	locked, err := s.flock.TryLockContext(lockCtx, lockRetry)
	if !locked {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if err == nil {
			err = lockCtx.Err()
		}
		return fmt.Errorf("lock %s: %w", s.flock.Path(), err)
	}
	defer func() { _ = s.flock.Unlock() }()
	f, err := fsutil.OpenFile(s.path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", s.path, err)
	}
	defer f.Close()
	state, stored := readState(f)
	fn(&state)
	data, err := json.Marshal(state)
	if err != nil || bytes.Equal(data, stored) {
		return err
	}
	return writeState(f, data)
}

// writeState rewrites the file in place, under the lock, without fsync:
// the window is worth nothing after a power loss (it has passed by the
// time the machine is back, and a lost or empty file reads as an empty
// window). In place, not through a new file renamed over it, because
// creating a file per request in a directory every token's state shares
// cost more than the rest of the pacing. The state is written whole, then
// the file cut to its length: a process killed between the two leaves the
// new state followed by the old one's end, which readState reads past.
func writeState(f *os.File, data []byte) error {
	if _, err := f.WriteAt(data, 0); err != nil {
		return fmt.Errorf("cannot write %s: %w", f.Name(), err)
	}
	if err := f.Truncate(int64(len(data))); err != nil {
		return fmt.Errorf("cannot write %s: %w", f.Name(), err)
	}
	return nil
}

// readState returns the state at the start of f and the bytes it was read
// from; a missing, unreadable, oversized or corrupt state yields an empty
// window rather than an error, since pacing must never stop requests.
func readState(f *os.File) (paceState, []byte) {
	var state paceState
	data, err := io.ReadAll(io.LimitReader(f, maxStateSize+1))
	if err != nil || len(data) > maxStateSize {
		return paceState{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if dec.Decode(&state) != nil {
		return paceState{}, nil
	}
	return state, data[:dec.InputOffset()]
}
