package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// jsonSafe makes raw JSON safe to show on a terminal without changing the
// value it encodes: control characters inside strings (which JSON forbids
// unescaped, but a broken server may send), DEL and the C1 controls (which
// JSON allows, but a terminal may act on) become \u00XX escapes; invalid UTF-8
// becomes \ufffd, as encoding/json would decode it. Bytes outside strings are
// left for the JSON validator to judge. Clean input, the common case, is
// returned as is.
func jsonSafe(raw []byte) []byte {
	e := escaper{raw: raw}
	inString, escaped := false, false
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case !inString:
			inString = c == '"'
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == '"':
			inString = false
		case c < 0x20 || c == 0x7f:
			e.replace(i, 1, fmt.Sprintf(`\u%04x`, c))
		case c >= utf8.RuneSelf:
			i += e.multiByte(i)
			continue
		}
		i++
	}
	return e.result()
}

// escaper copies raw into out lazily: only from the first byte it
// replaces, so clean input is never copied.
type escaper struct {
	raw, out []byte
	last     int // raw[last:] is not yet copied into out
}

func (e *escaper) replace(i, size int, with string) {
	if e.out == nil {
		e.out = make([]byte, 0, len(e.raw)+16)
	}
	e.out = append(e.out, e.raw[e.last:i]...)
	e.out = append(e.out, with...)
	e.last = i + size
}

// multiByte escapes the UTF-8 sequence at raw[i] if it is invalid or a C1
// control, and returns its length.
func (e *escaper) multiByte(i int) int {
	r, size := utf8.DecodeRune(e.raw[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		e.replace(i, 1, `\ufffd`)
	case r >= 0x80 && r <= 0x9f:
		e.replace(i, size, fmt.Sprintf(`\u%04x`, r))
	}
	return size
}

func (e *escaper) result() []byte {
	if e.out == nil {
		return e.raw
	}
	return append(e.out, e.raw[e.last:]...)
}

// indentJSON appends raw, made terminal-safe and indented by two spaces, to
// dst. json.Indent keeps number literals and key order exactly as sent.
func indentJSON(dst *bytes.Buffer, raw []byte) error {
	if err := json.Indent(dst, jsonSafe(raw), "", "  "); err != nil {
		return invalidJSON(err)
	}
	return nil
}

// compactJSON appends raw, made terminal-safe, on one line to dst.
func compactJSON(dst *bytes.Buffer, raw []byte) error {
	if err := json.Compact(dst, jsonSafe(raw)); err != nil {
		return invalidJSON(err)
	}
	return nil
}

func invalidJSON(err error) error {
	return fmt.Errorf("the server sent invalid JSON (%v); run with --debug to see the response", err)
}
