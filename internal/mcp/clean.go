package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/storectl/storectl/internal/output"
)

// cleaner makes a store's JSON fit to hand an assistant: every string,
// keys too, sanitised as for a terminal (output.Sanitize: escape sequences,
// controls, bidirectional controls) and stripped of the other invisible
// format characters (zero-width spaces and joiners, tag characters, the
// soft hyphen: Unicode's Cf), which can hide text from the person reading
// along; with --redact-pii, e-mail addresses and phone numbers masked.
// Numbers keep every digit as sent.
type cleaner struct{ redactPII bool }

// item cleans one JSON value; a value with nothing to clean is returned
// as it is, byte for byte.
func (c cleaner) item(raw json.RawMessage) (json.RawMessage, error) {
	if !c.redactPII && plainJSON(raw) {
		return raw, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var b bytes.Buffer
	b.Grow(len(raw))
	if err := c.value(dec, &b, ""); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// plainJSON reports JSON that holds only printable ASCII and no escape a
// sanitiser would act on (\u…, \b, \f, \r): nothing in it can be unsafe.
func plainJSON(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c >= 0x80:
			return false
		case c < 0x20 && c != '\n' && c != '\t' && c != '\r' && c != ' ':
			return false
		case c == '\\' && i+1 < len(raw):
			switch raw[i+1] {
			case 'u', 'b', 'f', 'r':
				return false
			}
			i++
		}
	}
	return true
}

var errShape = errors.New("unbalanced JSON")

func (c cleaner) value(dec *json.Decoder, b *bytes.Buffer, key string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			b.WriteByte('{')
			for i := 0; dec.More(); i++ {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				k, ok := kt.(string)
				if !ok {
					return errShape
				}
				if i > 0 {
					b.WriteByte(',')
				}
				writeString(b, clean(k))
				b.WriteByte(':')
				if err := c.value(dec, b, k); err != nil {
					return err
				}
			}
			b.WriteByte('}')
		case '[':
			b.WriteByte('[')
			for i := 0; dec.More(); i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				if err := c.value(dec, b, key); err != nil {
					return err
				}
			}
			b.WriteByte(']')
		default:
			return errShape
		}
		_, err := dec.Token() // the closing delimiter
		return err
	case string:
		writeString(b, c.text(t, key))
	case json.Number:
		b.WriteString(string(t))
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case nil:
		b.WriteString("null")
	}
	return nil
}

// text is a string of the store's, cleaned; key is the field it is the
// value of.
func (c cleaner) text(s, key string) string {
	s = clean(s)
	if !c.redactPII {
		return s
	}
	if strings.Contains(strings.ToLower(key), "phone") {
		return maskPhone(s)
	}
	return maskEmails(s)
}

// clean is Sanitize, then without the invisible format characters.
func clean(s string) string {
	s = output.Sanitize(s)
	if strings.IndexFunc(s, invisible) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if invisible(r) {
			return -1
		}
		return r
	}, s)
}

func invisible(r rune) bool {
	return r >= 0x80 && (unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029')
}

func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Truncate(b.Len() - 1)
}

var emailPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[A-Za-z0-9._%+\-]+@([A-Za-z0-9\-]+\.)+[A-Za-z]{2,}`)
})

// maskEmails keeps an address's first character and its domain:
// z***@example.com.
func maskEmails(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	return emailPattern().ReplaceAllStringFunc(s, func(addr string) string {
		at := strings.LastIndexByte(addr, '@')
		return addr[:1] + "***" + addr[at:]
	})
}

// maskPhone keeps a number's leading + and its last two digits.
func maskPhone(s string) string {
	digits := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			digits++
		}
	}
	var b strings.Builder
	seen := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			seen++
			if seen > digits-2 {
				b.WriteRune(r)
			} else {
				b.WriteByte('*')
			}
		case r == '+' && seen == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Secrets are the values no answer, error or log line may hold: the
// stores' tokens, the mirror's URLs, the webhook secret. The runner learns
// them as it builds each store's clients; every text leaving the server
// passes through scrub.
type Secrets struct {
	mu     sync.Mutex
	values []string
}

// minSecret is the shortest value scrubbed: shorter ones would mask
// ordinary words.
const minSecret = 6

// Learn adds values to scrub.
func (s *Secrets) Learn(values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range values {
		if len(v) >= minSecret && !slices.Contains(s.values, v) {
			s.values = append(s.values, v)
		}
	}
}

func (s *Secrets) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.values
}

// scrub replaces every secret in b.
func (s *Secrets) scrub(b []byte) []byte {
	for _, v := range s.list() {
		if bytes.Contains(b, []byte(v)) {
			b = bytes.ReplaceAll(b, []byte(v), []byte("[redacted]"))
		}
	}
	return b
}

// Scrub replaces every secret in a text.
func (s *Secrets) Scrub(t string) string {
	for _, v := range s.list() {
		t = strings.ReplaceAll(t, v, "[redacted]")
	}
	return t
}
