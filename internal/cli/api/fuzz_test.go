package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
)

// FuzzFields: any pair of -f/-F flags either fails as a usage error or
// builds a valid JSON body in which a plain -f key holds its value exactly.
func FuzzFields(f *testing.F) {
	for _, seed := range []struct {
		a, b   string
		typedB bool
	}{
		{"name=Launch", "status=1", true},
		{"ids[]=1", "ids[]=2", true},
		{"rows[][n]=a", "rows[][n]=b", false},
		{"a[b]=1", "a[]=2", false},
		{"x=1.5e3", "y=@-", true},
		{"t[fr][title]=\u00e9", "t[fr]=null", true},
		{"=", "a[", false},
	} {
		f.Add(seed.a, seed.b, seed.typedB)
	}
	f.Fuzz(func(t *testing.T, a, b string, typedB bool) {
		read := files(map[string]string{"-": "stdin text"})
		fields, err := parseFields([]fieldArg{{text: a}, {typed: typedB, text: b}}, read)
		if err != nil {
			if exitcode.Of(err) != exitcode.Usage {
				t.Fatalf("%q %q: error %v is not a usage error", a, b, err)
			}
			return
		}
		raw, err := bodyOf(fields)
		if err != nil {
			if exitcode.Of(err) != exitcode.Usage {
				t.Fatalf("%q %q: body error %v is not a usage error", a, b, err)
			}
			return
		}
		var doc map[string]any
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatalf("%q %q: body %s is not a JSON object: %v", a, b, raw, err)
		}
		if key, value, _ := strings.Cut(a, "="); !strings.ContainsAny(key, "[]") {
			if got, ok := doc[key].(string); !ok || got != value {
				t.Fatalf("%q: body %s holds %#v under %q, want %q", a, raw, doc[key], key, value)
			}
		}
		if _, err := queryOf(fields); err != nil && exitcode.Of(err) != exitcode.Usage {
			t.Fatalf("%q %q: query error %v", a, b, err)
		}
	})
}
