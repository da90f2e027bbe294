package output

import "bytes"

// The colours of JSON on a terminal, gh's: bold white punctuation, bold
// blue keys, green strings, yellow booleans, cyan null, numbers plain.
const (
	colorDelim  = "1;37"
	colorKey    = "1;34"
	colorString = "32"
	colorBool   = "33"
	colorNull   = "36"
)

// colorJSON appends js, valid JSON or a run of whole JSON tokens (a
// streamed array's next item with its comma), to dst with colour escapes
// around its tokens. Every byte of js is kept in order, so the text is
// exactly the plain output's: big numbers, escapes and key order unchanged.
func colorJSON(dst *bytes.Buffer, js []byte) {
	paint := func(color string, token []byte) {
		dst.WriteString("\x1b[" + color + "m")
		dst.Write(token)
		dst.WriteString("\x1b[m")
	}
	for i := 0; i < len(js); {
		switch c := js[i]; c {
		case '"':
			end := stringEnd(js, i)
			color := colorString
			if nextByte(js, end) == ':' {
				color = colorKey
			}
			paint(color, js[i:end])
			i = end
		case '{', '}', '[', ']', ',', ':':
			paint(colorDelim, js[i:i+1])
			i++
		case 't', 'f', 'n':
			end := i + 1
			for end < len(js) && js[end] >= 'a' && js[end] <= 'z' {
				end++
			}
			color := colorBool
			if c == 'n' {
				color = colorNull
			}
			paint(color, js[i:end])
			i = end
		default: // white space and numbers
			dst.WriteByte(c)
			i++
		}
	}
}

// stringEnd is the index just past the string that starts at js[start].
func stringEnd(js []byte, start int) int {
	for i := start + 1; i < len(js); i++ {
		switch js[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(js)
}

// nextByte is the first byte from js[i] on that is not white space, 0 at
// the end.
func nextByte(js []byte, i int) byte {
	for ; i < len(js); i++ {
		switch js[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return js[i]
		}
	}
	return 0
}
