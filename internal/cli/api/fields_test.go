package api

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
)

// files is a readSource over a fixed set of files; "-" is stdin.
func files(m map[string]string) readSource {
	return func(name string) ([]byte, error) {
		if s, ok := m[name]; ok {
			return []byte(s), nil
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
}

func TestTypedFieldValues(t *testing.T) {
	read := files(map[string]string{"note.txt": "line 1\nline \"2\"\n", "-": "from stdin", "bad.bin": "\xff\xfe"})
	for _, tt := range []struct {
		arg       string
		text, raw string
	}{
		{"n=42", "42", `42`},
		{"n=-0.50", "-0.50", `-0.50`},
		{"n=12345678901234567890123", "12345678901234567890123", `12345678901234567890123`},
		{"n=1e+9", "1e+9", `1e+9`},
		{"n=007", "007", `"007"`},
		{"n=+1", "+1", `"+1"`},
		{"n=1.", "1.", `"1."`},
		{"n=0x10", "0x10", `"0x10"`},
		{"b=true", "true", `true`},
		{"b=false", "false", `false`},
		{"b=True", "True", `"True"`},
		{"z=null", "", `null`},
		{"s=", "", `""`},
		{"s=a=b", "a=b", `"a=b"`},
		{"s=<&>", "<&>", `"<&>"`},
		{"s=@note.txt", "line 1\nline \"2\"\n", `"line 1\nline \"2\"\n"`},
		{"s=@-", "from stdin", `"from stdin"`},
	} {
		f, err := parseField(fieldArg{typed: true, text: tt.arg}, read)
		if err != nil {
			t.Errorf("-F %s: %v", tt.arg, err)
			continue
		}
		if f.text != tt.text || string(f.json) != tt.raw {
			t.Errorf("-F %s = text %q, JSON %s; want %q, %s", tt.arg, f.text, f.json, tt.text, tt.raw)
		}
	}
}

func TestRawFieldsAreAlwaysStrings(t *testing.T) {
	for _, arg := range []string{"n=42", "b=true", "z=null", "s=@note.txt", "s=@-"} {
		f, err := parseField(fieldArg{text: arg}, files(nil))
		_, value, _ := strings.Cut(arg, "=")
		if err != nil || f.text != value || string(f.json) != string(jsonString(value)) {
			t.Errorf("-f %s = %q %s, %v; want the string %q", arg, f.text, f.json, err, value)
		}
	}
}

func TestBadFieldsAreUsageErrors(t *testing.T) {
	read := files(map[string]string{"bad.bin": "\xff\xfe"})
	for _, tt := range []struct {
		typed bool
		arg   string
		want  string
	}{
		{false, "novalue", `-f "novalue": a field is key=value (or key[] alone for an empty array)`},
		{true, "=1", `-F "=1": the key is empty`},
		{false, "[a]=1", `the key is empty`},
		{false, "a]=1", `key "a]": write a nested key as name[key] and an array item as name[]`},
		{false, "a[b=1", `key "a[b"`},
		{false, "a[b]c=1", `key "a[b]c"`},
		{false, "a[[b]]=1", `key "a[[b]]"`},
		{true, "f=@", `after @ give a file name, or - for stdin`},
		{true, "f=@missing.json", `open missing.json: file does not exist`},
		{true, "f=@bad.bin", `bad.bin is not UTF-8 text`},
		{false, "k=\xff", `the value is not valid UTF-8`},
		{true, "k=\xff", `the value is not valid UTF-8`},
		{false, "\xff=1", `the key is not valid UTF-8`},
	} {
		_, err := parseField(fieldArg{typed: tt.typed, text: tt.arg}, read)
		if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: err = %v (exit %d), want a usage error containing %q", tt.arg, err, exitcode.Of(err), tt.want)
		}
	}
}

func TestStdinIsReadOnce(t *testing.T) {
	reads := 0
	read := func(name string) ([]byte, error) {
		reads++
		return []byte("x"), nil
	}
	_, err := parseFields([]fieldArg{{typed: true, text: "a=@-"}, {typed: true, text: "b=@-"}}, read)
	if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), "stdin is already read by another field") || reads != 1 {
		t.Errorf("two @- fields: %v after %d reads", err, reads)
	}
	// -f takes @- literally.
	if _, err := parseFields([]fieldArg{{typed: true, text: "a=@-"}, {text: "b=@-"}}, read); err != nil {
		t.Errorf("-F @- with -f @-: %v", err)
	}
}

func body(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var fa []fieldArg
	for _, a := range args {
		typed, text, _ := strings.Cut(a, " ")
		fa = append(fa, fieldArg{typed: typed == "-F", text: text})
	}
	fields, err := parseFields(fa, files(nil))
	if err != nil {
		t.Fatal(err)
	}
	b, err := bodyOf(fields)
	return string(b), err
}

func TestBodyNestsInOrder(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-f name=Launch", "-F status=1", "-F show_countdown=true", "-F end_date=null"},
			`{"name":"Launch","status":1,"show_countdown":true,"end_date":null}`},
		{[]string{"-F ids[]=3", "-F ids[]=1", "-f ids[]=2"}, `{"ids":[3,1,"2"]}`},
		{[]string{"-F ids[]"}, `{"ids":[]}`},
		{[]string{"-F ids[]", "-F ids[]=7"}, `{"ids":[7]}`},
		{[]string{"-f translations[fr][title]=Bientôt", "-f translations[en][title]=Soon", "-f translations[fr][button]=Me prévenir"},
			`{"translations":{"fr":{"title":"Bientôt","button":"Me prévenir"},"en":{"title":"Soon"}}}`},
		{[]string{"-f rows[][name]=a", "-F rows[][n]=1", "-f rows[][name]=b", "-F rows[][n]=2"},
			`{"rows":[{"name":"a","n":1},{"name":"b","n":2}]}`},
		{[]string{"-f a[b][c][]=x"}, `{"a":{"b":{"c":["x"]}}}`},
		{[]string{"-f z=1", "-f a=2"}, `{"z":"1","a":"2"}`},
	} {
		got, err := body(t, tt.args...)
		if err != nil || got != tt.want {
			t.Errorf("%v = %s, %v; want %s", tt.args, got, err, tt.want)
		}
	}
}

func TestBodyConflicts(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-f a=1", "-f a=2"}, `field "a": a is given twice`},
		{[]string{"-f a=1", "-f a[b]=2"}, `field "a[b]": a is already a value, not an object`},
		{[]string{"-f a[]=1", "-f a[b]=2"}, `field "a[b]": a is already an array, not an object`},
		{[]string{"-f a[b]=1", "-f a[]=2"}, `field "a[]": a is already an object, not an array`},
		{[]string{"-f a[b]=1", "-f a=2"}, `field "a": a is given twice`},
		{[]string{"-f a[][]=1"}, `arrays of arrays cannot be written as fields`},
	} {
		_, err := body(t, tt.args...)
		if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err = %v, want a usage error containing %q", tt.args, err, tt.want)
		}
	}
}

func TestQueryKeepsKeysAsWritten(t *testing.T) {
	fields, err := parseFields([]fieldArg{{text: "vendor=Cedar & Pine"}, {typed: true, text: "limit=5"}, {text: "tags[]=new"},
		{text: "tags[]=sale"}, {typed: true, text: "x=null"}}, files(nil))
	if err != nil {
		t.Fatal(err)
	}
	q, err := queryOf(fields)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := q.Encode(), "limit=5&tags%5B%5D=new&tags%5B%5D=sale&vendor=Cedar+%26+Pine&x="; got != want {
		t.Errorf("query = %s, want %s", got, want)
	}
	empty, _ := parseFields([]fieldArg{{text: "ids[]"}}, files(nil))
	if _, err := queryOf(empty); exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), "an empty array has no form in a query string") {
		t.Errorf("empty array in a query: %v", err)
	}
}
