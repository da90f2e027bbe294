package flex

import (
	"encoding/json"
	"testing"
)

func TestNumber(t *testing.T) {
	for _, tc := range []struct {
		in    string
		text  string
		valid bool
	}{
		{`4.50`, "4.50", true},
		{`"12"`, "12", true},
		{`0`, "0", true},
		{`null`, "", false},
		{`""`, "", false},
	} {
		var n Number
		if err := json.Unmarshal([]byte(tc.in), &n); err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if n.Text != tc.text || n.Valid != tc.valid {
			t.Errorf("%s: got %+v", tc.in, n)
		}
	}
	var n Number
	if err := json.Unmarshal([]byte(`"ten"`), &n); err == nil {
		t.Error(`"ten" decoded as a number`)
	}
	if err := json.Unmarshal([]byte(`true`), &n); err == nil {
		t.Error("true decoded as a number")
	}
}
