package httpx

import (
	"context"
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
)

// tokenKey names a token's shared state without revealing the token.
func tokenKey(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
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
	base := filepath.Join(dir, "pace-"+tokenKey(token))
	return &fileStore{path: base + ".json", flock: flock.New(base + ".lock")}, nil
}

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
	state := s.read()
	fn(&state)
	return s.write(state)
}

// read returns the stored state; a missing, unreadable, oversized or
// corrupt file yields an empty window rather than an error, since pacing
// must never stop requests.
func (s *fileStore) read() paceState {
	var state paceState
	f, err := os.Open(s.path)
	if err != nil {
		return state
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxStateSize+1))
	if err != nil || len(data) > maxStateSize || json.Unmarshal(data, &state) != nil {
		return paceState{}
	}
	return state
}

// write replaces the file atomically (fsutil), so that a crash mid-write
// leaves the old state rather than half a file.
func (s *fileStore) write(state paceState) error {
	data, err := json.Marshal(state)
	if err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(s.path, data, 0o600)
}
