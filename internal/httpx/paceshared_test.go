package httpx

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
)

// fakeShared keeps the window as a store that rewrites the JSON would
// (keys in another order), counting writes.
type fakeShared struct {
	mu     sync.Mutex
	data   []byte
	writes int
}

func (f *fakeShared) Update(ctx context.Context, fn func([]byte) []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if next := fn(f.data); next != nil {
		var m map[string]any
		if err := json.Unmarshal(next, &m); err != nil {
			return err
		}
		f.data, _ = json.Marshal(m) // sorted keys: not the bytes handed over
		f.writes++
	}
	return nil
}

// A look that changes nothing writes nothing, whatever form the store
// keeps the JSON in; a change is written and read back.
func TestSharedPaceWritesOnlyChanges(t *testing.T) {
	f := &fakeShared{}
	s := sharedPace{f}
	ctx := context.Background()
	if err := s.update(ctx, func(st *paceState) { st.Slots = append(st.Slots, slot{ID: 1, Sent: 5, Done: 6}) }); err != nil {
		t.Fatal(err)
	}
	if f.writes != 1 {
		t.Fatalf("writes after a change: %d", f.writes)
	}
	var seen paceState
	for range 3 {
		if err := s.update(ctx, func(st *paceState) { seen = *st }); err != nil {
			t.Fatal(err)
		}
	}
	if f.writes != 1 {
		t.Errorf("looks wrote %d times", f.writes-1)
	}
	if len(seen.Slots) != 1 || seen.Slots[0].Done != 6 {
		t.Errorf("read back %+v", seen)
	}
}

// A damaged window reads as empty: pacing never stops requests.
func TestSharedPaceDamagedReadsEmpty(t *testing.T) {
	f := &fakeShared{data: []byte("{not json")}
	var got paceState
	if err := (sharedPace{f}).update(context.Background(), func(st *paceState) { got = *st }); err != nil {
		t.Fatal(err)
	}
	if len(got.Slots) != 0 {
		t.Errorf("damaged state read as %+v", got)
	}
}
