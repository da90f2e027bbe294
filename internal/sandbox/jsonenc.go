package sandbox

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// appendJSON appends v's JSON encoding, byte for byte what encoding/json
// writes with HTML escaping off (<, > and & as they are: form labels hold
// raw HTML and should read as the merchant wrote them; FuzzAppendString
// compares the two). No quirk of the API's JSON needs an encoding of its
// own (the spec names none, such as escaped slashes): this one is kept for
// speed alone, because the sandbox is the server of the export and mirror
// benchmarks, whose figures must measure storectl, not the sandbox:
// encoding/json through object.MarshalJSON took about twice the time per
// page (BenchmarkSubmissionPages100k compares).
func appendJSON(buf []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(buf, "null"...), nil
	case object:
		return v.appendTo(buf)
	case members:
		return v.object().appendTo(buf)
	case []object:
		buf = append(buf, '[')
		for i, item := range v {
			if i > 0 {
				buf = append(buf, ',')
			}
			var err error
			if buf, err = item.appendTo(buf); err != nil {
				return nil, err
			}
		}
		return append(buf, ']'), nil
	case string:
		return appendString(buf, v), nil
	case *string:
		if v == nil {
			return append(buf, "null"...), nil
		}
		return appendString(buf, *v), nil
	case bool:
		return strconv.AppendBool(buf, v), nil
	case int:
		return strconv.AppendInt(buf, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(buf, v, 10), nil
	case json.RawMessage:
		var compact bytes.Buffer
		if err := json.Compact(&compact, v); err != nil {
			return nil, err
		}
		return append(buf, compact.Bytes()...), nil
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return append(buf, bytes.TrimSuffix(out.Bytes(), []byte("\n"))...), nil
}

func (o object) appendTo(buf []byte) ([]byte, error) {
	buf = append(buf, '{')
	for i, f := range o {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendString(buf, f.key)
		buf = append(buf, ':')
		var err error
		if buf, err = appendJSON(buf, f.value); err != nil {
			return nil, err
		}
	}
	return append(buf, '}'), nil
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string the way encoding/json does with
// HTML escaping off: control characters, U+2028 and U+2029 escaped, invalid
// UTF-8 replaced by U+FFFD.
func appendString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				buf = append(buf, '\\', c)
			case c == '\n':
				buf = append(buf, '\\', 'n')
			case c == '\r':
				buf = append(buf, '\\', 'r')
			case c == '\t':
				buf = append(buf, '\\', 't')
			case c == '\b':
				buf = append(buf, '\\', 'b')
			case c == '\f':
				buf = append(buf, '\\', 'f')
			case c < 0x20:
				buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			default:
				buf = append(buf, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			buf = append(buf, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			buf = append(buf, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			buf = append(buf, s[i:i+size]...)
		}
		i += size
	}
	return append(buf, '"')
}
