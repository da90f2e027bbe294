package mirror

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// marshalObject is what objectWriter wrote before it wrote strings and
// numbers in place: each value through json.Marshal (or strconv) and
// copied in. objectWriter must write the same bytes.
func marshalObject(cols []string, vals []any) string {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, c := range cols {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(c)
		b.Write(k)
		b.WriteByte(':')
		switch v := vals[i].(type) {
		case nil:
			b.WriteString("null")
		case int64:
			b.WriteString(strconv.FormatInt(v, 10))
		case float64:
			if f := strconv.FormatFloat(v, 'g', -1, 64); f != "NaN" && !strings.Contains(f, "Inf") {
				b.WriteString(f)
			} else {
				b.WriteString("null")
			}
		case bool:
			b.WriteString(strconv.FormatBool(v))
		case backend.RawJSON:
			b.Write(v)
		case string:
			s, _ := json.Marshal(v)
			b.Write(s)
		case []byte:
			if utf8.Valid(v) {
				s, _ := json.Marshal(string(v))
				b.Write(s)
			} else {
				s, _ := json.Marshal(base64.StdEncoding.EncodeToString(v))
				b.Write(s)
			}
		default:
			s, _ := json.Marshal(fmt.Sprint(v))
			b.Write(s)
		}
	}
	b.WriteByte('}')
	return b.String()
}

func TestObjectWriterWritesWhatMarshalWould(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	pieces := []string{"a", "é", "<", ">", "&", "\"", "\\", "\n", "\t", "\x00", "\x1f", "\x7f", "\u2028", "\u2029",
		"\xff", "\xc3", "💡", " ", "title", "/", "\ufffd"}
	text := func() string {
		var s strings.Builder
		for range r.IntN(12) {
			s.WriteString(pieces[r.IntN(len(pieces))])
		}
		return s.String()
	}
	value := func() any {
		switch r.IntN(9) {
		case 0:
			return nil
		case 1:
			return r.Int64() - r.Int64()
		case 2:
			return []float64{r.NormFloat64() * 1e6, math.NaN(), math.Inf(1), math.Inf(-1), 0, 1e21, 5e-324}[r.IntN(7)]
		case 3:
			return r.IntN(2) == 0
		case 4:
			return backend.RawJSON(`{"k":[1,2]}`)
		case 5:
			return []byte(text())
		case 6:
			return time.Date(2026, 11, 26, 10, 0, r.IntN(60), 0, time.UTC)
		default:
			return text()
		}
	}
	cols := []string{"id", "product_title", "<b>", "é\"x"}
	w := newObjectWriter(cols)
	var kept []json.RawMessage
	var wanted []string
	for i := range 5000 {
		vals := make([]any, len(cols))
		for j := range vals {
			vals[j] = value()
		}
		got, want := w.object(vals), marshalObject(cols, vals)
		if string(got) != want {
			t.Fatalf("row %d %#v:\n got %s\nwant %s", i, vals, got, want)
		}
		kept, wanted = append(kept, got), append(wanted, want)
	}
	// Each object stays as it was written when the next ones are.
	for i := range kept {
		if string(kept[i]) != wanted[i] {
			t.Fatalf("row %d changed after later rows:\n got %s\nwant %s", i, kept[i], wanted[i])
		}
	}
}
