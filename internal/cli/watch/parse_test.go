package watch

import (
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/mirror"
)

func TestParseAlert(t *testing.T) {
	for in, want := range map[string]mirror.Alert{
		"pending>=20":                  {Name: "pending>=20", Min: 20},
		" Pending >= 3 ":               {Name: "pending>=3", Min: 3},
		"pending>=50 by product":       {Name: "pending>=50 by product", Min: 50, ByProduct: true},
		"pending>4 by variant":         {Name: "pending>4", Min: 5},
		"pending  >=  7  BY  PRODUCT ": {Name: "pending>=7 by product", Min: 7, ByProduct: true},
	} {
		got, err := parseAlert(in)
		if err != nil || got != want {
			t.Errorf("parseAlert(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "pending", "pending<3", "pending>=x", "sent>=3", "pending>=0", "pending>=3 by sku", "pending>=99999999999"} {
		if _, err := parseAlert(bad); exitcode.Of(err) != exitcode.Usage {
			t.Errorf("parseAlert(%q): %v, want a usage error", bad, err)
		}
	}
}

// --forward-to is parsed here, worded with the flag; the engine takes the
// URL, and refuses plain http to any host but loopback itself.
func TestParseForwardTo(t *testing.T) {
	for _, ok := range []string{"https://hooks.example.com/x", "http://127.0.0.1:3000/hook", "http://localhost/x", "http://[::1]:8080/"} {
		if u, err := parseForwardTo(ok); err != nil || u.String() != ok {
			t.Errorf("%s: %v, %v", ok, u, err)
		}
	}
	for bad, want := range map[string]string{
		"http://hooks.example.com/x": "refusing plain http",
		"ftp://x/":                   `--forward-to "ftp://x/": the scheme must be https`,
		"hooks.example.com":          `--forward-to "hooks.example.com" is not a URL`,
		"":                           "not a URL",
	} {
		_, err := parseForwardTo(bad)
		if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", bad, err, want)
		}
	}
}

// A webhook without a secret is refused before anything is read, saying
// where a secret comes from.
func TestForwardToNeedsASecret(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	o := &Options{ForwardTo: "https://x.example", Getenv: func(string) string { return "" }}
	o.IO = ios
	_, err := o.sinks()
	if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), "--forward-to needs a secret") ||
		!strings.Contains(exitcode.HintOf(err), "STORECTL_WEBHOOK_SECRET") {
		t.Errorf("no secret: %v (hint %q)", err, exitcode.HintOf(err))
	}
}
