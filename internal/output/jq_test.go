package output

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
)

const bigDoc = `{"id":9007199254740993,"big":123456789012345678901234567890,"neg":-123456789012345678901234567890,"f":1.10,"s":"x\u001b[31my","nested":{"b":[9007199254740993],"a":true}}`

func TestJQKeepsNumbersExact(t *testing.T) {
	tests := []struct{ expr, want string }{
		{".id", "9007199254740993"},
		{".big", "123456789012345678901234567890"},
		{".neg", "-123456789012345678901234567890"},
		{".f", "1.10"},
		{".nested.b", "[9007199254740993]"},
		{".id + 1", "9007199254740994"},
		{".big + 1", "123456789012345678901234567891"},
		{"[.id, .big] | tostring", "[9007199254740993,123456789012345678901234567890]"},
		{".nested", `{"a":true,"b":[9007199254740993]}`},
		{".s", "x\x1b[31my"}, // off a terminal a string is printed exactly
		{".[\"s\"] | length", "7"},
		{"empty", ""},
		{"halt", ""},
	}
	for _, tt := range tests {
		p, out, _ := newPrinter(t, Options{JQ: tt.expr})
		if err := p.Object(json.RawMessage(bigDoc), nil); err != nil {
			t.Errorf("%s: %v", tt.expr, err)
			continue
		}
		want := tt.want
		if want != "" {
			want += "\n"
		}
		if out.String() != want {
			t.Errorf("--jq %s printed %q, want %q", tt.expr, out, want)
		}
	}
}

func TestJQOnTerminal(t *testing.T) {
	ios, out := terminalStreams(80, false)
	p, err := New(ios, Options{JQ: ".nested, .s"})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Object(json.RawMessage(bigDoc), nil); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"a\": true,\n  \"b\": [\n    9007199254740993\n  ]\n}\nxy\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

func TestJQRuntimeErrorIsExitOne(t *testing.T) {
	p, out, _ := newPrinter(t, Options{JQ: ".id, (.id | keys)"})
	err := p.Object(json.RawMessage(bigDoc), nil)
	if err == nil || !strings.HasPrefix(err.Error(), "--jq: ") {
		t.Fatalf("err = %v", err)
	}
	if exitcode.Of(err) != exitcode.Failure {
		t.Errorf("exit code %d, want 1", exitcode.Of(err))
	}
	if out.String() != "9007199254740993\n" {
		t.Errorf("results before the error should be printed, got %q", out)
	}
	p, _, _ = newPrinter(t, Options{JQ: `"boom" | halt_error`})
	if err := p.Object(json.RawMessage(bigDoc), nil); exitcode.Of(err) != exitcode.Failure {
		t.Errorf("halt_error: err = %v, code %d", err, exitcode.Of(err))
	}
}

func TestJQCompileErrorIsUsage(t *testing.T) {
	for _, expr := range []string{".[", "foo", "{a:}", "map(", "nosuch(1)"} {
		p, err := New(nil, Options{JQ: expr})
		if err == nil {
			t.Errorf("--jq %q compiled: %v", expr, p)
			continue
		}
		if exitcode.Of(err) != exitcode.Usage {
			t.Errorf("--jq %q: exit code %d, want 2", expr, exitcode.Of(err))
		}
	}
}

func TestJQSeesTheEnvironment(t *testing.T) {
	t.Setenv("STORECTL_JQ_TEST", "from the environment")
	for _, expr := range []string{"env.STORECTL_JQ_TEST", "$ENV.STORECTL_JQ_TEST"} {
		ios, _, out, _ := iostreams.Test()
		p, err := New(ios, Options{JQ: expr})
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Object(json.RawMessage(`{}`), nil); err != nil {
			t.Fatal(err)
		}
		if out.String() != "from the environment\n" {
			t.Errorf("--jq %s printed %q", expr, out)
		}
	}
}

// With -o ndjson, --jq runs on each item of a list, as jq reads NDJSON and
// as bis export's stream runs it; with -o json, on the whole array.
func TestJQOnNDJSONListRunsPerItem(t *testing.T) {
	items := []json.RawMessage{json.RawMessage(`{"id":1,"status":0}`), json.RawMessage(`{"id":2,"status":1}`)}
	for format, want := range map[Format]string{NDJSON: "1\n2\n", JSON: "2\n"} {
		expr := ".id"
		if format == JSON {
			expr = "length"
		}
		p, out, _ := newPrinter(t, Options{Format: format, JQ: expr})
		if err := p.List(items, nil); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if out.String() != want {
			t.Errorf("-o %s --jq %s: %q, want %q", format, expr, out.String(), want)
		}
	}
}
