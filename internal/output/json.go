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
	var out []byte
	inString, escaped := false, false
	last := 0 // raw[last:i] is pending copy into out
	replace := func(i, size int, with string) {
		if out == nil {
			out = make([]byte, 0, len(raw)+16)
		}
		out = append(out, raw[last:i]...)
		out = append(out, with...)
		last = i + size
	}
	for i := 0; i < len(raw); {
		c := raw[i]
		if !inString {
			if c == '"' {
				inString = true
			}
			i++
			continue
		}
		switch {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == '"':
			inString = false
		case c < 0x20 || c == 0x7f:
			replace(i, 1, fmt.Sprintf(`\u%04x`, c))
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(raw[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				replace(i, 1, `\ufffd`)
			case r >= 0x80 && r <= 0x9f:
				replace(i, size, fmt.Sprintf(`\u%04x`, r))
			}
			i += size
			continue
		}
		i++
	}
	if out == nil {
		return raw
	}
	return append(out, raw[last:]...)
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
