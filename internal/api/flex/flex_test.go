package flex

import (
	"encoding/json"
	"testing"
)

func TestID(t *testing.T) {
	for in, want := range map[string]ID{`9007199254740993`: "9007199254740993", `"8001"`: "8001", `null`: "", `" 42 "`: "42"} {
		var id ID
		if err := json.Unmarshal([]byte(in), &id); err != nil || id != want {
			t.Errorf("%s: got %q, %v; want %q", in, id, err, want)
		}
	}
	var id ID
	if err := json.Unmarshal([]byte(`{}`), &id); err == nil {
		t.Error("object accepted as id")
	}
}

func TestInt(t *testing.T) {
	cases := map[string]Int{`5`: {5, true}, `"7"`: {7, true}, `null`: {}, `""`: {}, `2.0`: {2, true}}
	for in, want := range cases {
		var v Int
		if err := json.Unmarshal([]byte(in), &v); err != nil || v != want {
			t.Errorf("%s: got %+v, %v; want %+v", in, v, err, want)
		}
	}
	var v Int
	if err := json.Unmarshal([]byte(`"x"`), &v); err == nil {
		t.Error(`"x" accepted as int`)
	}
}

func TestBool(t *testing.T) {
	cases := map[string]Bool{`true`: {true, true}, `1`: {true, true}, `"0"`: {false, true}, `false`: {false, true}, `null`: {}}
	for in, want := range cases {
		var v Bool
		if err := json.Unmarshal([]byte(in), &v); err != nil || v != want {
			t.Errorf("%s: got %+v, %v; want %+v", in, v, err, want)
		}
	}
	var v Bool
	if err := json.Unmarshal([]byte(`2`), &v); err == nil {
		t.Error("2 accepted as bool")
	}
}

func TestZeroOrTime(t *testing.T) {
	cases := map[string]string{`0`: "", `"0"`: "", `null`: "", `"2026-10-02 14:03:11"`: "2026-10-02 14:03:11"}
	for in, want := range cases {
		var v ZeroOrTime
		if err := json.Unmarshal([]byte(in), &v); err != nil || v.Time != want {
			t.Errorf("%s: got %+v, %v; want %q", in, v, err, want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{`0`, `"1"`, `null`, `true`, `9007199254740993`, `"2026-01-01"`, `{}`, `[`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var id ID
		var i Int
		var b Bool
		var z ZeroOrTime
		_ = json.Unmarshal([]byte(s), &id)
		_ = json.Unmarshal([]byte(s), &i)
		_ = json.Unmarshal([]byte(s), &b)
		_ = json.Unmarshal([]byte(s), &z)
	})
}
