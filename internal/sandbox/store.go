package sandbox

import "sync"

// Store holds the sandbox State.
//
// Update commits fn's changes when fn returns nil. When fn returns an error
// the file store discards every change, but the memory store cannot undo
// them, so fn must return its error before it changes anything (the
// sandbox's handlers validate first and write last).
type Store interface {
	// View gives fn read-only access to the state; fn must not change it
	// nor keep it after returning.
	View(fn func(*State) error) error
	// Update gives fn the state to read and change, atomically with respect
	// to every other View and Update on the same state.
	Update(fn func(*State) error) error
}

// NewMemoryStore keeps s in memory; tests and the in-process sandbox use it.
// The store owns s from then on.
func NewMemoryStore(s *State) Store {
	return &memoryStore{state: s}
}

type memoryStore struct {
	mu    sync.RWMutex
	state *State
}

func (m *memoryStore) View(fn func(*State) error) error {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return fn(m.state)
}

func (m *memoryStore) Update(fn func(*State) error) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return fn(m.state)
}
