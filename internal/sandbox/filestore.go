package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/storectl/storectl/internal/fsutil"
)

// OpenFileStore keeps the state in the JSON file at path, creating it with
// DemoState() when it is missing; a file it cannot read is an error that
// names the file and the command that resets it. Several processes may use the same file:
// every View and Update takes a lock on path+".lock" and reloads the file, and
// every Update replaces the file atomically (temporary file, fsync, rename),
// so a reader never sees a half-written state.
func OpenFileStore(path string) (Store, error) {
	s := &fileStore{path: path, lockWait: stateLockWait}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("sandbox state directory: %w", err)
	}
	err := s.withLock(true, func() error {
		_, err := os.Stat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return s.write(DemoState())
		}
		// Reading it now reports a damaged file before any command runs.
		_, err = s.read()
		return err
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// ResetFile replaces the state file at path with DemoState(), under the same
// lock as the file store.
func ResetFile(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("sandbox state directory: %w", err)
	}
	s := &fileStore{path: path, lockWait: stateLockWait}
	return s.withLock(true, func() error { return s.write(DemoState()) })
}

// stateLockWait bounds the wait for another process's lock on the state:
// every holder keeps it for one read and one write, so a longer wait means
// a stuck process, which the user is told about rather than left waiting.
const stateLockWait = 10 * time.Second

type fileStore struct {
	path     string
	lockWait time.Duration
	// mu serialises this store's own users: a flock is held per open file,
	// so goroutines sharing one store must take turns before locking.
	mu sync.RWMutex
}

func (s *fileStore) View(fn func(*State) error) error {
	return s.withLock(false, func() error {
		state, err := s.read()
		if err != nil {
			return err
		}
		return fn(state)
	})
}

func (s *fileStore) Update(fn func(*State) error) error {
	return s.withLock(true, func() error {
		state, err := s.read()
		if err != nil {
			return err
		}
		if err := fn(state); err != nil {
			return err
		}
		return s.write(state)
	})
}

// withLock runs fn holding the in-process lock and the file lock, shared or
// exclusive.
func (s *fileStore) withLock(exclusive bool, fn func() error) error {
	if exclusive {
		s.mu.Lock()
		defer s.mu.Unlock()
	} else {
		s.mu.RLock()
		defer s.mu.RUnlock()
	}
	lock := flock.New(s.path+".lock", flock.SetPermissions(0o600))
	ctx, cancel := context.WithTimeout(context.Background(), s.lockWait)
	defer cancel()
	var locked bool
	var err error
	if exclusive {
		locked, err = lock.TryLockContext(ctx, 10*time.Millisecond)
	} else {
		locked, err = lock.TryRLockContext(ctx, 10*time.Millisecond)
	}
	switch {
	case locked:
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("the sandbox state %s is held by another storectl process (waited %s): let it finish or stop it; if none is running, delete %s", s.path, s.lockWait, lock.Path())
	default:
		return fmt.Errorf("lock sandbox state %s: %w", s.path, err)
	}
	defer func() { _ = lock.Close() }()
	return fn()
}

// read loads the state file; a missing file reads as the demo state, which
// the next Update writes.
func (s *fileStore) read() (*State, error) {
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return DemoState(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("read sandbox state: %w", err)
	}
	var state State
	if err := json.Unmarshal(data, &state); err != nil {
		return nil, s.corrupt(err.Error())
	}
	if state.Version != stateVersion {
		return nil, s.corrupt(fmt.Sprintf("it has version %d, this storectl expects %d", state.Version, stateVersion))
	}
	return &state, nil
}

func (s *fileStore) corrupt(why string) error {
	return fmt.Errorf("sandbox state file %s is unreadable (%s); run `storectl sandbox reset` to start again from the demo data", s.path, why)
}

// write replaces the state file atomically with mode 0600: the state holds
// (fake) customer e-mails and phones, treated like real ones.
func (s *fileStore) write(state *State) error {
	data, err := json.Marshal(state)
	if err != nil {
		return fmt.Errorf("encode sandbox state: %w", err)
	}
	if err := fsutil.WriteFileAtomic(s.path, data, 0o600); err != nil {
		return fmt.Errorf("write sandbox state: %w", err)
	}
	return nil
}
