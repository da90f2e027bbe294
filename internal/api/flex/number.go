package flex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Number is a decimal sent as a JSON number or a numeric string (amounts,
// discounts). Text keeps the digits as sent, so 4.50 stays 4.50; null or
// an empty string leaves Valid false.
type Number struct {
	Text  string
	Valid bool
}

func (n *Number) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	*n = Number{}
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	text := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &text); err != nil {
			return err
		}
		text = strings.TrimSpace(text)
		if text == "" {
			return nil
		}
	}
	if _, err := strconv.ParseFloat(text, 64); err != nil {
		return fmt.Errorf("want a number, got %.40s", b)
	}
	*n = Number{Text: text, Valid: true}
	return nil
}

// Float is the value as a float64, for arithmetic on display (0 when not
// valid).
func (n Number) Float() float64 {
	f, _ := strconv.ParseFloat(n.Text, 64)
	return f
}

// IsZero reports a missing value or one equal to zero.
func (n Number) IsZero() bool { return !n.Valid || n.Float() == 0 }
