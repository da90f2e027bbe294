package watch

import (
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
)

func TestParseAlert(t *testing.T) {
	for in, want := range map[string]Alert{
		"pending>=20":                  {Name: "pending>=20", Min: 20},
		" Pending >= 3 ":               {Name: "pending>=3", Min: 3},
		"pending>=50 by product":       {Name: "pending>=50 by product", Min: 50, ByProduct: true},
		"pending>4 by variant":         {Name: "pending>4", Min: 5},
		"pending  >=  7  BY  PRODUCT ": {Name: "pending>=7 by product", Min: 7, ByProduct: true},
	} {
		got, err := ParseAlert(in)
		if err != nil || got != want {
			t.Errorf("ParseAlert(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "pending", "pending<3", "pending>=x", "sent>=3", "pending>=0", "pending>=3 by sku", "pending>=99999999999"} {
		if _, err := ParseAlert(bad); exitcode.Of(err) != exitcode.Usage {
			t.Errorf("ParseAlert(%q): %v, want a usage error", bad, err)
		}
	}
}
