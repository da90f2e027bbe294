package api

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/storectl/storectl/internal/exitcode"
)

// fieldArg is one -f or -F flag as written. Both flags fill one list, so
// that array items and object keys keep the command line's order.
type fieldArg struct {
	typed bool // -F
	text  string
}

func (a fieldArg) flag() string {
	if a.typed {
		return "-F"
	}
	return "-f"
}

// fieldsFlag is -f or -F: each use appends to the shared list.
type fieldsFlag struct {
	args  *[]fieldArg
	typed bool
}

func (f fieldsFlag) Set(s string) error {
	*f.args = append(*f.args, fieldArg{typed: f.typed, text: s})
	return nil
}

func (f fieldsFlag) String() string { return "" }
func (f fieldsFlag) Type() string   { return "stringArray" }

// field is a parsed -f or -F.
type field struct {
	key string // as written: the query parameter's name
	// path is the key's name, then the content of each bracket ("" for
	// [], which appends to an array).
	path []string
	// emptyArray is key[] given without a value: an empty array.
	emptyArray bool
	text       string // the value as a query sends it
	json       []byte // the value in a JSON body
}

// jsonNumber is the JSON number grammar: -F sends such a value as a number,
// with its digits exactly as written (no float rounding); 007 or +1 are
// not JSON numbers and stay strings.
var jsonNumber = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`) })

// readSource reads the file an @ value names; "-" is stdin.
type readSource func(name string) ([]byte, error)

// parseField reads one -f key=value (a string) or -F key=value (typed:
// true, false, null and JSON numbers as such, @FILE and @- as the text
// read there, anything else a string). A bad form is a usage error naming
// the flag.
func parseField(arg fieldArg, read readSource) (field, error) {
	fail := func(format string, a ...any) (field, error) {
		return field{}, exitcode.Usagef("%s %q: %s", arg.flag(), arg.text, fmt.Sprintf(format, a...))
	}
	key, value, hasValue := strings.Cut(arg.text, "=")
	if !utf8.ValidString(key) {
		return fail("the key is not valid UTF-8")
	}
	path, err := parseKey(key)
	if err != nil {
		return fail("%v", err)
	}
	f := field{key: key, path: path}
	if !hasValue {
		if path[len(path)-1] != "" {
			return fail("a field is key=value (or key[] alone for an empty array)")
		}
		f.emptyArray = true
		return f, nil
	}
	if arg.typed {
		if f.text, f.json, err = typedValue(value, read); errors.Is(err, context.Canceled) {
			return field{}, err
		} else if err != nil {
			return fail("%v", err)
		}
		return f, nil
	}
	if !utf8.ValidString(value) {
		return fail("the value is not valid UTF-8")
	}
	f.text, f.json = value, jsonString(value)
	return f, nil
}

// parseKey splits name[a][][b] into name, a, "", b.
func parseKey(key string) ([]string, error) {
	name, rest := key, ""
	if i := strings.IndexByte(key, '['); i >= 0 {
		name, rest = key[:i], key[i:]
	}
	if name == "" {
		return nil, fmt.Errorf("the key is empty: write key=value")
	}
	if strings.Contains(name, "]") {
		return nil, badKey(key)
	}
	path := []string{name}
	for rest != "" {
		inner, after, ok := strings.Cut(rest[1:], "]")
		if rest[0] != '[' || !ok || strings.Contains(inner, "[") {
			return nil, badKey(key)
		}
		path = append(path, inner)
		rest = after
	}
	return path, nil
}

func badKey(key string) error {
	return fmt.Errorf("key %q: write a nested key as name[key] and an array item as name[]", key)
}

// typedValue is -F's reading of a value: its query text and JSON.
func typedValue(value string, read readSource) (text string, raw []byte, err error) {
	switch {
	case strings.HasPrefix(value, "@"):
		name := value[1:]
		if name == "" {
			return "", nil, fmt.Errorf("after @ give a file name, or - for stdin")
		}
		b, err := read(name)
		if err != nil {
			return "", nil, err
		}
		if !utf8.Valid(b) {
			return "", nil, fmt.Errorf("%s is not UTF-8 text; a field's value must be (send other data with --input)", sourceName(name))
		}
		return string(b), jsonString(string(b)), nil
	case value == "true" || value == "false":
		return value, []byte(value), nil
	case value == "null":
		return "", []byte(value), nil
	case jsonNumber().MatchString(value):
		return value, []byte(value), nil
	case !utf8.ValidString(value):
		return "", nil, fmt.Errorf("the value is not valid UTF-8")
	}
	return value, jsonString(value), nil
}

func sourceName(name string) string {
	if name == "-" {
		return "stdin"
	}
	return name
}

// parseFields parses every field; stdin can be read by one @- only.
func parseFields(args []fieldArg, read readSource) ([]field, error) {
	stdinUsed := false
	fields := make([]field, 0, len(args))
	for _, a := range args {
		if _, value, _ := strings.Cut(a.text, "="); a.typed && value == "@-" {
			if stdinUsed {
				return nil, exitcode.Usagef("%s %q: stdin is already read by another field; put one of them in a file", a.flag(), a.text)
			}
			stdinUsed = true
		}
		f, err := parseField(a, read)
		if err != nil {
			return nil, err
		}
		fields = append(fields, f)
	}
	return fields, nil
}

// queryOf puts the fields in a query string, keys as written: name[]=a
// repeated for an array, as the catalog API reads them.
func queryOf(fields []field) (url.Values, error) {
	q := url.Values{}
	for _, f := range fields {
		if f.emptyArray {
			return nil, exitcode.Usagef("field %q: an empty array has no form in a query string; it can only be sent in a JSON body (with -X POST, PUT, PATCH or DELETE)", f.key)
		}
		q.Add(f.key, f.text)
	}
	return q, nil
}
