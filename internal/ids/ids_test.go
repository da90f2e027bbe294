package ids

import (
	"reflect"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
)

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{"007": "7", " 12 ": "12", "9223372036854775807": "9223372036854775807"} {
		if got, ok := Normalize(in); !ok || got != want {
			t.Errorf("%q: %q %v", in, got, ok)
		}
	}
	// One id rule everywhere: digits, from 1 to 2^63−1.
	for _, bad := range []string{"", "-1", "1.0", "1e3", "9223372036854775808", "18446744073709551616", "99999999999999999999999", "0", "000", "abc"} {
		if _, ok := Normalize(bad); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestSplit(t *testing.T) {
	got := Split("1,2;3", " 4\t5\n", "", "6,,7")
	want := []string{"1", "2", "3", "4", "5", "6", "7"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Split = %q", got)
	}
}

func TestIsDigits(t *testing.T) {
	for s, want := range map[string]bool{"0": true, "45001234560001": true, "": false, "1a": false, "-1": false, "١": false} {
		if IsDigits(s) != want {
			t.Errorf("IsDigits(%q) != %v", s, want)
		}
	}
}

func TestParseID(t *testing.T) {
	for in, want := range map[string]string{"007": "7", " 12 ": "12", "9223372036854775807": "9223372036854775807"} {
		if got, err := ParseID("rule ID", in); err != nil || got != want {
			t.Errorf("%q: %q %v", in, got, err)
		}
	}
	for in, want := range map[string]string{
		"": `rule ID "" is not a number`, "12x": `rule ID "12x" is not a number`, "-1": "is not a number",
		"1/2": "is not a number", "0": `rule ID "0" is not an ID: IDs start at 1`, "000": "IDs start at 1",
		"9223372036854775808": "is too large to be an ID (IDs go up to 9223372036854775807)",
	} {
		_, err := ParseID("rule ID", in)
		if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v (exit %d), want %q", in, err, exitcode.Of(err), want)
		}
	}
}
