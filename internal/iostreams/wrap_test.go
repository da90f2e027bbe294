package iostreams

import (
	"strings"
	"testing"
)

func TestWrapMessage(t *testing.T) {
	note := "note: left out ATTEMPTS, OCCURRED to fit 80 columns; --fields chooses the columns (such as --fields id,last_error,attempts,occurred_at), -o csv shows them all"
	for _, tt := range []struct {
		line  string
		width int
		want  string
	}{
		{"note: short", 80, "note: short"},
		{note, 80, "note: left out ATTEMPTS, OCCURRED to fit 80 columns; --fields chooses the\n" +
			"      columns (such as --fields id,last_error,attempts,occurred_at), -o csv\n" +
			"      shows them all"},
		// A command in backquotes stays on one line.
		{"hint: the role in mirror_url lacks that right: grant it, or run `storectl mirror migrate` with the owner's role", 60,
			"hint: the role in mirror_url lacks that right: grant it, or\n      run `storectl mirror migrate` with the owner's role"},
		// An indented line keeps its indentation; a word wider than the line stays whole.
		{"  row 2 (line 3): The end date must be a date after start date, the server says", 40,
			"  row 2 (line 3): The end date must be a\n  date after start date, the server says"},
		{"storectl: cannot read /a/very/long/path/that/is/wider/than/the/terminal/itself.csv", 30,
			"storectl: cannot read\n          /a/very/long/path/that/is/wider/than/the/terminal/itself.csv"},
		// A status line's redraw is left alone.
		{"\r" + strings.Repeat("x ", 50), 40, "\r" + strings.Repeat("x ", 50)},
	} {
		if got := wrapMessage(tt.line, tt.width); got != tt.want {
			t.Errorf("wrapMessage(%q, %d) =\n%s\nwant\n%s", tt.line, tt.width, got, tt.want)
		}
		for _, l := range strings.Split(wrapMessage(tt.line, tt.width), "\n") {
			if len([]rune(l)) > tt.width && !strings.ContainsAny(tt.line, "\r/") {
				t.Errorf("%q: a line of %d", l, len([]rune(l)))
			}
		}
	}
}

// Only whole lines are wrapped: a prompt written without its newline, and
// what follows it on its line, are not.
func TestStderrWrapsWholeLines(t *testing.T) {
	s := &Stderr{width: 30}
	long := "warning: this message is longer than thirty columns"
	got := string(s.wrapped([]byte("? Continue [y/N] ")))
	got += string(s.wrapped([]byte(long + "\n" + long + "\n")))
	want := "? Continue [y/N] " + long + "\nwarning: this message is\n         longer than thirty\n         columns\n"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
