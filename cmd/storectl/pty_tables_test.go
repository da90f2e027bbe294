//go:build linux

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// listViews are the commands that print a table, with what each must
// still show whole on a narrow terminal: its identifiers and its answer.
var listViews = []struct {
	args []string
	show []string
}{
	{[]string{"bis", "list"}, []string{"EMAIL", "liam.kim@example.com", "Prairie Waffle Pullover"}},
	{[]string{"bis", "find", "--email", "liam.kim@example.com"}, []string{"10320", "liam.kim@example.com"}},
	{[]string{"bis", "demand"}, []string{"PENDING", "Northstar Road Runners"}},
	{[]string{"bis", "demand", "--by", "variant"}, []string{"VARIANT ID", "45001234560768", "PENDING"}},
	{[]string{"bis", "export", "-o", "table", "--details"}, []string{"maya.schmidt@example.net"}},
	{[]string{"preorder", "list"}, []string{"3101", "START (shop time)"}},
	// The winning offer's name and WHY whole (issue 37): the demo's 3104
	// ended on 1 December 2026.
	{[]string{"preorder", "products"}, []string{"45001234560040", "WHY", "Backpack & Sneak", "product offer (most specific)"}},
	{[]string{"preorder", "products", "--product-id", "8001234560026"}, []string{"45001234560092", "Outerwear Pre-s", "ended 2026-12-01, now 3101 would win"}},
	{[]string{"comingsoon", "list"}, []string{"NAME", "Hoodie XXL", "2026-11-21 10:00"}},
	{[]string{"comingsoon", "apply", "--file", "@launches.csv", "--dry-run"}, []string{"Parka launch", "create"}},
	{[]string{"comingsoon", "delete", "--expired", "--dry-run"}, []string{"BATCH", "NAME", "Store-wide maintenance"}},
	{[]string{"catalog", "filter"}, []string{"TITLE", "PRICE", "Glacier Pocket Tee"}},
	{[]string{"catalog", "search", "boots"}, []string{"TITLE", "8001234560128"}},
	{[]string{"bis", "form"}, []string{"ID", "LABEL", "Email address", "Phone number (for a text message)"}},
	{[]string{"mirror", "query", "SELECT id, customer_email, product_title, variant_title, sku, created_at FROM submissions ORDER BY id LIMIT 5"},
		[]string{"customer_email", "hana.larsen@mail.example", "10001"}},
	{[]string{"profile", "list"}, []string{"NAME", "default"}},
	{[]string{"config", "list"}, []string{"KEY", "rate_limit"}},
	// The bulk runs' result tables; they change the sandbox, so they come last.
	{[]string{"comingsoon", "create", "--from-file", "@launches.csv"}, []string{"Parka launch", "created"}},
	{[]string{"comingsoon", "delete", "1", "2", "--yes"}, []string{"BATCH", "deleted"}},
}

var (
	terminalEscape = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)
	message        = regexp.MustCompile(`^(\S+ )?(note|warning|dry run|page \d+|Suggestions): |^(POST|DELETE) /`)
)

// TestTablesFitTheTerminal runs every list view on terminals of 80 and 120
// columns: no line is wider than the terminal, what the view is for stays
// whole, and columns left out are named with how to see them.
func TestTablesFitTheTerminal(t *testing.T) {
	dir := t.TempDir()
	launches := filepath.Join(dir, "launches.csv")
	if err := os.WriteFile(launches, []byte("name,start_date,end_date,apply_to,product_ids\n"+
		"Parka launch,2026-12-01 09:00:00,2026-12-15,product,8001234560034;8001234560072\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"TZ=UTC", "NO_COLOR=1", "STORECTL_PAGER=cat", "STORECTL_TEST_NOW=2026-12-07T12:00:00Z"}
	for _, cols := range []uint16{80, 120} {
		home := t.TempDir()
		for _, v := range listViews {
			args := append([]string{"--sandbox"}, v.args...)
			for i, a := range args {
				if a == "@launches.csv" {
					args[i] = launches
				}
			}
			screen, err := storectlSized(t, 200, cols, home, env, args...)
			if err != nil {
				t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, screen)
			}
			checkScreen(t, cols, strings.Join(v.args, " "), screen, v.show)
		}
	}
}

func checkScreen(t *testing.T, cols uint16, name, screen string, show []string) {
	t.Helper()
	var table []string
	for _, line := range strings.Split(terminalEscape.ReplaceAllString(screen, ""), "\n") {
		// The spinner redraws its line after a carriage return; messages
		// and request lines are not table rows.
		for _, part := range strings.Split(line, "\r") {
			if w := twwidth.Width(part); w > int(cols) && !message.MatchString(part) {
				t.Errorf("%s at %d columns: a line of %d:\n%s", name, cols, w, part)
			}
		}
		table = append(table, line)
	}
	text := strings.Join(table, "\n")
	for _, want := range show {
		if !strings.Contains(text, want) {
			t.Errorf("%s at %d columns: %q is missing or cut:\n%s", name, cols, want, text)
		}
	}
	// A note wider than the terminal is wrapped, its lines indented.
	unwrapped := regexp.MustCompile(`\n +`).ReplaceAllString(text, " ")
	if strings.Contains(text, "note: left out") && !regexp.MustCompile(`--fields chooses the columns \(such as --fields [A-Za-z_,]+\), -o csv shows them all`).MatchString(unwrapped) {
		t.Errorf("%s at %d columns: the note says not how to see what was left out:\n%s", name, cols, text)
	}
}

// watch events --failed at 80 columns keeps what it is read for: which
// events, and why they failed (issue 37): the attempts and the time give
// way first, and the cause comes first in the last error.
func TestWatchEventsFitTheTerminal(t *testing.T) {
	home := t.TempDir()
	env := []string{"TZ=UTC", "NO_COLOR=1", "STORECTL_PAGER=cat"}
	for _, args := range [][]string{
		{"watch", "--once", "-q"},
		{"comingsoon", "create", "--name", "Winter drop", "--start", "2026-12-01", "--apply-to", "all", "-q"},
		{"watch", "--once", "--forward-to", "http://127.0.0.1:1/hook", "--secret", "dev", "--retry-for", "0"},
	} {
		if screen, err := storectlSized(t, 40, 200, home, env, append([]string{"--sandbox"}, args...)...); err != nil && args[0] != "watch" {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, screen)
		}
	}
	screen, err := storectlSized(t, 40, 80, home, env, "--sandbox", "watch", "events", "--failed")
	if err != nil {
		t.Fatalf("watch events --failed: %v\n%s", err, screen)
	}
	checkScreen(t, 80, "watch events --failed", screen, []string{"LAST ERROR", "rule.created", "parked", "connection refused"})
}

// Notes, warnings and hints wider than the terminal are broken at spaces,
// each continuation indented under the text (issue 37), not cut by the
// terminal inside a word.
func TestNotesWrapAtTheTerminalsWidth(t *testing.T) {
	rules := filepath.Join(t.TempDir(), "rules.csv")
	if err := os.WriteFile(rules, []byte("name,start_date,apply_to\nTeaser,2026-12-01,all\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	screen, err := storectlSized(t, 40, 80, t.TempDir(), []string{"TZ=UTC", "NO_COLOR=1"},
		"--sandbox", "comingsoon", "create", "--from-file", rules, "--dry-run")
	if err != nil {
		t.Fatalf("%v\n%s", err, screen)
	}
	want := "note: dates without a zone were read in your time zone (UTC) and are sent in\n" +
		"      UTC; an end date without a time ends at the end of that day\n"
	if !strings.Contains(screen, want) {
		t.Errorf("the note at 80 columns:\n%s\nwant it as\n%s", screen, want)
	}
}
