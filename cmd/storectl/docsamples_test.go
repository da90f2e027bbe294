package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sampledGuides are guide pages whose sample output must be what the real
// binary prints against the sandbox: each ```sh block of one `storectl
// --sandbox` command followed by a plain (or json) block of its output.
var sampledGuides = []string{"preorder-priority.md", "getting-started.md"}

// TestGuideSamplesAreTheBinarysOutput runs each sample command and compares
// the output with the page, a line "…" standing for any number of lines.
func TestGuideSamplesAreTheBinarysOutput(t *testing.T) {
	for _, page := range sampledGuides {
		text, err := os.ReadFile(filepath.Join("../../docs", page))
		if err != nil {
			t.Fatal(err)
		}
		samples := guideSamples(string(text))
		if len(samples) == 0 {
			t.Errorf("%s: no samples found", page)
		}
		for _, s := range samples {
			got := runSample(t, s.command)
			if !matchesSample(strings.Split(strings.TrimRight(got, "\n"), "\n"), s.output) {
				t.Errorf("%s: `%s` prints\n%s\nbut the page shows\n%s", page, s.command, got, strings.Join(s.output, "\n"))
			}
		}
	}
}

type guideSample struct {
	command string
	output  []string
}

// guideSamples finds the command/output pairs of a markdown page.
func guideSamples(page string) []guideSample {
	var out []guideSample
	blocks := strings.Split(page, "```")
	// Odd pieces are fenced blocks: their first line is the language.
	for i := 1; i+2 < len(blocks); i += 2 {
		lang, body, _ := strings.Cut(blocks[i], "\n")
		lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
		if lang != "sh" || len(lines) != 1 || !strings.HasPrefix(lines[0], "storectl --sandbox ") ||
			strings.TrimSpace(blocks[i+1]) != "" {
			continue
		}
		nextLang, output, _ := strings.Cut(blocks[i+2], "\n")
		if nextLang == "" || nextLang == "json" {
			out = append(out, guideSample{command: lines[0], output: strings.Split(strings.TrimRight(output, "\n"), "\n")})
		}
	}
	return out
}

// runSample runs a sample command line as a shell would, against a fresh
// sandbox, stdout then stderr; a sample may show a refusal, so its exit
// code does not matter. The pages read the demo's dated data (offers'
// and rules' states) on 7 December 2026.
func runSample(t *testing.T, command string) string {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command("sh", "-c", command)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TZ=UTC", "NO_COLOR=1", "STORECTL_TEST_NOW=2026-12-07T12:00:00Z",
		"XDG_CONFIG_HOME=" + filepath.Join(home, "c"), "XDG_STATE_HOME=" + filepath.Join(home, "s"),
		"XDG_CACHE_HOME=" + filepath.Join(home, "x"), "XDG_DATA_HOME=" + filepath.Join(home, "d"),
		"DBUS_SESSION_BUS_ADDRESS=unix:path=" + filepath.Join(home, "no-dbus")}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil && cmd.ProcessState == nil {
		t.Fatalf("%s: %v", command, err)
	}
	return stdout.String() + stderr.String()
}

// matchesSample reports whether got matches want line by line, a want line
// of "…" (indented or not) matching any run of lines.
func matchesSample(got, want []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if strings.TrimSpace(want[0]) == "…" {
		for skip := 0; skip <= len(got); skip++ {
			if matchesSample(got[skip:], want[1:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && got[0] == want[0] && matchesSample(got[1:], want[1:])
}
