package output

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// A message quoting a bad line of a file shows at most QuotedMax of its
// characters and says how many more there were (issue 37: a 100,000
// character line was quoted whole); short quotes, escapes and text outside
// quotes are kept.
func TestMessageClipsQuotedValues(t *testing.T) {
	long := strings.Repeat("x", 100000)
	msg := Message(fmt.Sprintf("del.txt line 1: %q is not a rule ID; %q is fine", long, "short"))
	want := fmt.Sprintf("del.txt line 1: %q…\" (99800 more characters) is not a rule ID; \"short\" is fine", strings.Repeat("x", QuotedMax))
	want = strings.Replace(want, `x"…`, `x…`, 1)
	if msg != want {
		t.Fatalf("got  %.300q\nwant %.300q", msg, want)
	}
	// An escape is never cut in half.
	esc := Message(fmt.Sprintf("%q", strings.Repeat("é\x00", 300)))
	if !strings.Contains(esc, `é\x00…" (`) || !strings.HasSuffix(esc, " more characters)") {
		t.Fatalf("%q", esc)
	}
	// A line of text with no quotes is cut in its middle.
	plain := Message("line 1: " + long)
	if n := utf8.RuneCountInString(plain); n > MessageLineMax+100 || !strings.Contains(plain, "characters left out") {
		t.Fatalf("%d characters: %.200q", n, plain)
	}
	for _, s := range []string{"", "no quotes", `a "quoted" word`, `an "unterminated quote`, "two\nlines"} {
		if got := Message(s); got != s {
			t.Errorf("Message(%q) = %q", s, got)
		}
	}
}
