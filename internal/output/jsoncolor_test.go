package output

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/iostreams"
)

var escapes = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestColorJSONPaintsTokensAndKeepsEveryByte(t *testing.T) {
	in := `{"a\"b": "x:y", "n": 12345678901234567890, "t": true, "f": false, "z": null, "l": [1, "s"]}`
	var got bytes.Buffer
	colorJSON(&got, []byte(in))
	if plain := escapes.ReplaceAllString(got.String(), ""); plain != in {
		t.Fatalf("colour changed the text:\n%s\nwant\n%s", plain, in)
	}
	for _, want := range []string{
		"\x1b[1;37m{\x1b[m",
		"\x1b[1;34m\"a\\\"b\"\x1b[m\x1b[1;37m:\x1b[m",
		"\x1b[32m\"x:y\"\x1b[m",
		" 12345678901234567890\x1b[1;37m,",
		"\x1b[33mtrue\x1b[m", "\x1b[33mfalse\x1b[m", "\x1b[36mnull\x1b[m",
		"\x1b[32m\"s\"\x1b[m\x1b[1;37m]\x1b[m",
	} {
		if !strings.Contains(got.String(), want) {
			t.Errorf("missing %q in %q", want, got.String())
		}
	}
}

func TestJSONInColourOnlyWhenColourIsAllowed(t *testing.T) {
	items := []json.RawMessage{json.RawMessage(`{"id":1,"title":"Tee"}`)}
	print := func(tty, color bool, opts Options) string {
		t.Helper()
		ios, _, out, _ := iostreams.Test()
		ios.OutTTY, ios.ColorEnabled = tty, color
		p, err := New(ios, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.List(items, nil); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	plain := print(false, false, Options{Format: JSON})
	if plain != "[\n  {\n    \"id\": 1,\n    \"title\": \"Tee\"\n  }\n]\n" {
		t.Fatalf("plain JSON: %q", plain)
	}
	if got := print(true, false, Options{Format: JSON}); got != plain {
		t.Errorf("NO_COLOR terminal got escapes: %q", got)
	}
	colored := print(true, true, Options{Format: JSON})
	if !strings.Contains(colored, "\x1b[1;34m\"title\"\x1b[m") || escapes.ReplaceAllString(colored, "") != plain {
		t.Errorf("colour terminal: %q", colored)
	}
	if got := print(true, true, Options{Format: NDJSON}); strings.Contains(got, "\x1b") {
		t.Errorf("NDJSON is for machines, got colour: %q", got)
	}
	if got := print(true, true, Options{JQ: ".[0]"}); !strings.Contains(got, "\x1b[1;34m\"id\"\x1b[m") {
		t.Errorf("--jq object on a colour terminal: %q", got)
	}
	if got := print(true, true, Options{JQ: ".[0].title"}); got != "Tee\n" {
		t.Errorf("--jq string stays plain text: %q", got)
	}

	// A streamed array prints what List prints, colour included.
	ios, _, out, _ := iostreams.Test()
	ios.OutTTY, ios.ColorEnabled = true, true
	p, _ := New(ios, Options{Format: JSON})
	s, err := p.Stream(ios.Out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Write(items[0]); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if escapes.ReplaceAllString(out.String(), "") != plain || !strings.Contains(out.String(), "\x1b[1;37m]\x1b[m") {
		t.Errorf("stream: %q", out)
	}
}
