package sandbox

import (
	"testing"
	"time"
)

// A restock sends every pending submission of the variant back in stock,
// and no other variant's: asked for one e-mail, the sandbox restocks the
// longest-waiting variant whole.
func TestEngageRestocksWholeVariants(t *testing.T) {
	store := NewMemoryStore(DemoStateWithSubmissions(400))
	pendingOf := map[int64]int{}
	var first int64 = -1
	_ = store.View(func(st *State) error {
		for _, s := range st.Submissions {
			if s.Status == 0 {
				if first < 0 {
					first = s.VariantID
				}
				pendingOf[s.VariantID]++
			}
		}
		return nil
	})
	if pendingOf[first] < 2 {
		t.Fatalf("the first waiting variant has %d pending submissions: the test needs 2 or more", pendingOf[first])
	}
	now := time.Date(2026, time.November, 20, 9, 0, 0, 0, time.UTC)
	if err := Engage(store, 1, now); err != nil {
		t.Fatal(err)
	}
	_ = store.View(func(st *State) error {
		sent := 0
		for _, s := range st.Submissions {
			justSent := s.LastSent != nil && s.LastSent.Equal(now)
			switch {
			case s.VariantID == first && s.Status != 1:
				t.Errorf("submission %d of the restocked variant %d is still waiting", s.ID, first)
			case s.VariantID != first && justSent:
				t.Errorf("submission %d of variant %d was sent, though only %d was restocked", s.ID, s.VariantID, first)
			case justSent:
				sent++
			}
		}
		if sent != pendingOf[first] {
			t.Errorf("%d e-mails went out, want the %d the variant had waiting", sent, pendingOf[first])
		}
		return nil
	})
}
