package comingsoon

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/sandbox"
)

// listFormats are the formats `comingsoon list` writes a file in; each
// reads back through apply --file (and create --from-file) as the same
// rules.
var listFormats = []string{"csv", "xlsx", "json", "ndjson", "yaml"}

// Everything `comingsoon list` writes reads back as the rules it lists:
// for rule sets with hostile names (a formula's first character, the
// guard's own quote, tabs, carriage returns, NUL, quotes, commas and
// semicolons, text that looks like a visible control, bidi controls,
// emoji), with and without start and end dates, list → file → apply
// --prune --dry-run plans nothing, in every format.
func TestListReadsBackAsTheSameRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 2))
	for set := range 12 {
		rules := randomRules(rng, 1+rng.IntN(25))
		for _, format := range listFormats {
			t.Run(fmt.Sprintf("set%d/%s", set, format), func(t *testing.T) {
				e := clitest.New(t, clitest.WithOutput(format), withRules(rules))
				e.Sends("GET /shop-api/coming-soon/list")
				if err := runList(context.Background(), listOpts(e, cmdutil.PageFlags{Page: 1, All: true})); err != nil {
					t.Fatal(err)
				}
				file := filepath.Join(t.TempDir(), "rules."+format)
				if err := os.WriteFile(file, e.Out.Bytes(), 0o600); err != nil {
					t.Fatal(err)
				}
				e.Out.Reset()
				e.Settings.Output = "json"
				opts := applyOpts(e, file)
				opts.Prune, opts.DryRun, opts.Yes = true, true, false
				if err := runApply(context.Background(), opts); err != nil {
					t.Fatalf("%v\nfile:\n%s", err, readFile(t, file))
				}
				want := fmt.Sprintf("plan: %d unchanged\n", len(rules))
				if !strings.Contains(e.ErrOut.String(), want) || strings.Contains(e.Out.String(), `"action":"create"`) {
					t.Errorf("the listing does not read back as the store's rules:\n%s\n%s\nfile:\n%s", e.ErrOut, e.Out, readFile(t, file))
				}
			})
		}
	}
}

// withRules makes the sandbox hold exactly rules.
func withRules(rules []sandbox.Rule) clitest.Option {
	return clitest.WithSandbox(func(o *sandbox.Options) {
		o.Store = sandbox.NewMemoryStore(&sandbox.State{Rules: append([]sandbox.Rule(nil), rules...), NextRuleID: int64(len(rules) + 1)})
	})
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(b) {
		return fmt.Sprintf("(%d bytes of binary)", len(b))
	}
	return string(b)
}

// namePrefixes and nameParts make hostile names: what a spreadsheet runs,
// the guard's own quote before it, separators of every file format, and
// text that only looks like the forms the writers use.
var (
	namePrefixes = []string{"", "", "=", "+", "-", "@", "\t", "\r", "'", "'=", "''+", "'-", "\"", "＝", "-12.5", "+1 480 555", "<U+000D>", "<0xFF>"}
	nameParts    = []string{"Launch", "a,b", "x;y", `say "hi"`, "Zoë 🙂 李", "עברית", "a\x00b", "line\nbreak", "tab\there", "cr\rhere",
		"\u202eevil", "HYPERLINK(\"http://x\",\"y\")", "SUM(A1:A2)", "<U+0041>", "  spaced  ", "\x1b[31mred", "'", "'@", "é\u0301"}
)

// randomRules are n rules with distinct names (as compared: trimmed), each
// valid as the API would have created it, but for an occasional rule
// without a start date (a draft the store may hold).
func randomRules(rng *rand.Rand, n int) []sandbox.Rule {
	base := time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)
	seen := map[string]bool{}
	var rules []sandbox.Rule
	for len(rules) < n {
		name := namePrefixes[rng.IntN(len(namePrefixes))]
		for range 1 + rng.IntN(3) {
			name += nameParts[rng.IntN(len(nameParts))]
		}
		if rng.IntN(4) == 0 {
			name += fmt.Sprint(rng.IntN(100))
		}
		key := strings.TrimSpace(name)
		if key == "" || seen[key] || utf8.RuneCountInString(key) > 255 {
			continue
		}
		seen[key] = true
		id := int64(len(rules) + 1)
		r := sandbox.Rule{ID: id, Name: name, Status: rng.IntN(2), CreatedAt: base.Add(-time.Duration(id) * time.Hour), UpdatedAt: base}
		r.CreatedAt, r.UpdatedAt = r.CreatedAt.Add(time.Duration(rng.IntN(1e6))*time.Microsecond), r.CreatedAt
		if rng.IntN(8) != 0 {
			start := base.Add(time.Duration(rng.IntN(90*24*3600))*time.Second + time.Duration(rng.IntN(1e6))*time.Microsecond)
			r.StartDate = &start
		}
		if rng.IntN(2) == 0 {
			end := base.Add(100*24*time.Hour + time.Duration(rng.IntN(90*24*3600))*time.Second)
			r.EndDate = &end
		}
		if c := rng.IntN(3); c < 2 {
			b := c == 1
			r.ShowCountdown = &b
		}
		switch rng.IntN(4) {
		case 0:
			r.ApplyTo = "all"
		case 1:
			r.ApplyTo = "product"
			r.ProductIDs = randomIDs(rng)
		case 2:
			r.ApplyTo = "variant"
			r.VariantIDs = randomIDs(rng)
		default:
			r.ApplyTo = "collection"
			c := 400123456000 + rng.Int64N(1000)
			r.CollectionID = &c
		}
		r.Translations, r.TranslationsSet = randomTranslations(rng)
		rules = append(rules, r)
	}
	return rules
}

// randomTranslations are none (null), an empty object, or texts in a few
// languages, some empty, some hostile.
func randomTranslations(rng *rand.Rand) ([]sandbox.Translation, bool) {
	switch rng.IntN(4) {
	case 0:
		return nil, false
	case 1:
		return nil, true
	}
	text := func() *string {
		if rng.IntN(3) == 0 {
			return nil
		}
		s := []string{"", "Notify me", "=Bientôt", "'@soon", "a,b;c", "line\nbreak", "tab\t", "<U+000D>", "Muy pronto."}[rng.IntN(9)]
		return &s
	}
	var out []sandbox.Translation
	for _, lang := range []string{"default", "fr", "pt-BR"}[:1+rng.IntN(3)] {
		out = append(out, sandbox.Translation{Lang: lang, AddToCartText: text(), AboveMessage: text(), BellowMessage: text()})
	}
	return out, true
}

// What `comingsoon get` writes (-o json, -o yaml: one rule with its
// translations, empty ones included) reads back through apply as the same
// rule.
func TestGetReadsBackAsTheSameRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 3))
	rules := randomRules(rng, 30)
	for _, format := range []string{"json", "yaml"} {
		for _, r := range rules {
			t.Run(fmt.Sprintf("%s/%d", format, r.ID), func(t *testing.T) {
				e := clitest.New(t, clitest.WithOutput(format), withRules(rules))
				e.Sends("GET /shop-api/coming-soon/get/*", "GET /shop-api/coming-soon/list")
				if err := runGet(context.Background(), &GetOptions{ShopDeps: e.F.ShopDeps(), Loc: berlin, Now: time.Now, ID: fmt.Sprint(r.ID)}); err != nil {
					t.Fatal(err)
				}
				file := filepath.Join(t.TempDir(), "rule."+format)
				if err := os.WriteFile(file, e.Out.Bytes(), 0o600); err != nil {
					t.Fatal(err)
				}
				e.Out.Reset()
				opts := applyOpts(e, file)
				opts.DryRun, opts.Yes = true, false
				if err := runApply(context.Background(), opts); err != nil {
					t.Fatalf("%v\nfile:\n%s", err, readFile(t, file))
				}
				if !strings.Contains(e.ErrOut.String(), "plan: 1 unchanged\n") {
					t.Errorf("the rule does not read back as itself:\n%s\n%s\nfile:\n%s", e.ErrOut, e.Out, readFile(t, file))
				}
			})
		}
	}
}

// randomIDs are 1 to 50 distinct ids, some beyond what a float holds
// exactly.
func randomIDs(rng *rand.Rand) []int64 {
	n := 1 + rng.IntN(50)
	seen := map[int64]bool{}
	var out []int64
	for len(out) < n {
		id := 8001234560000 + rng.Int64N(100000)
		if rng.IntN(10) == 0 {
			id = 9007199254740993 + rng.Int64N(1000)
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
