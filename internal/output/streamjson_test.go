package output

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// streamJSONArray prints exactly what indenting the whole array prints
// (the path -o json took before), and refuses what it refuses.
func TestStreamJSONArrayIsTheIndentedArray(t *testing.T) {
	pieces := []string{`{}`, `[]`, `{"a":1}`, ` {"b" : [1, 2, {}]} `, "{\"c\":\"x\\u0001\x01y\"}\n", `"s"`, `12.5e3`, `null`,
		`{"d":{"e":[[],{}],"f":"é\u2028"}}`, "{\"g\":\"\xff\"}", `[{"h":true},false]`, "\t{\"i\":\"\x7f\"}\r\n"}
	bad := []string{``, `1,2`, `{`, `{"a":}`, `]`}
	r := rand.New(rand.NewPCG(3, 4))
	for n := range 400 {
		var items []json.RawMessage
		for range r.IntN(6) {
			items = append(items, json.RawMessage(pieces[r.IntN(len(pieces))]))
		}
		if n%10 == 9 && len(items) > 0 {
			items[r.IntN(len(items))] = json.RawMessage(bad[r.IntN(len(bad))])
		}
		var want bytes.Buffer
		p := &Printer{}
		arr, wantErr := p.array(items, nil)
		if wantErr == nil {
			wantErr = indentJSON(&want, arr)
			want.WriteByte('\n')
		}
		var got bytes.Buffer
		gotErr := streamJSONArray(&got, items)
		if (gotErr != nil) != (wantErr != nil) {
			t.Fatalf("items %q: error %v, the whole array's %v", items, gotErr, wantErr)
		}
		if wantErr == nil && got.String() != want.String() {
			t.Fatalf("items %q:\n got %q\nwant %q", items, got.String(), want.String())
		}
		if wantErr != nil && got.Len() != 0 {
			t.Fatalf("items %q: wrote %q before refusing", items, got.String())
		}
		if wantErr != nil && !strings.Contains(gotErr.Error(), "item ") {
			t.Fatalf("error %v does not name the item", gotErr)
		}
	}
}
