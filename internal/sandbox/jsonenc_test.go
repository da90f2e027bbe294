package sandbox

import (
	"bytes"
	"encoding/json"
	"testing"
)

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", `"q" \ /`, "<b>&amp;</b>", "tab\tnl\ncr\r\x00\x1f\x7f", "\u2028\u2029", "\xff\xfe", "é漢🙂", "\u001b]0;pwned\u0007"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := appendString(nil, s); string(got) != string(bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want.Bytes())
		}
	})
}

func TestAppendJSON(t *testing.T) {
	str := "x"
	var nilStr *string
	obj := object{
		{"s", "<a>"}, {"p", &str}, {"np", nilStr}, {"n", nil}, {"b", true}, {"i", -3}, {"i64", int64(1) << 62},
		{"f", 4.5}, {"raw", json.RawMessage(" { \"a\" : [1, 2] } ")}, {"list", []object{{}, {{"k", 1}}}},
		{"ints", []int64{1, 2}}, {"nilints", []int64(nil)}, {"members", members{{"z", json.RawMessage(`1`)}, {"a", json.RawMessage(`"b"`)}}},
	}
	got, err := marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"s":"<a>","p":"x","np":null,"n":null,"b":true,"i":-3,"i64":4611686018427387904,"f":4.5,` +
		`"raw":{"a":[1,2]},"list":[{},{"k":1}],"ints":[1,2],"nilints":null,"members":{"z":1,"a":"b"}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if _, err := marshal(object{{"bad", json.RawMessage("{")}}); err == nil {
		t.Error("invalid raw JSON encoded without error")
	}
}
