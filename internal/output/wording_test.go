package output

import "testing"

func TestFirstAndMore(t *testing.T) {
	for _, c := range []struct {
		shown []string
		total int
		want  string
	}{
		{[]string{"1", "2"}, 2, "1, 2"},
		{[]string{"1", "2"}, 7, "1, 2 and 5 more"},
		{nil, 0, ""},
	} {
		if got := FirstAndMore(c.shown, c.total); got != c.want {
			t.Errorf("FirstAndMore(%v, %d) = %q, want %q", c.shown, c.total, got, c.want)
		}
	}
}

func TestListChanged(t *testing.T) {
	if got, want := ListChanged(10, 12, "submissions", "written", 3),
		"the list changed while it was read: 10 submissions at the start, 12 at the end; each written once (3 of them have left the store since)"; got != want {
		t.Errorf("got %q", got)
	}
	if got, want := ListChanged(10, 12, "", "row stored", 0),
		"the list changed while it was read: 10 at the start, 12 at the end; each row stored once"; got != want {
		t.Errorf("got %q", got)
	}
}
