package report

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The page as a browser shows it: headless Chromium renders the demo
// store's report at a desktop and a phone width (screenshots), and dumps
// its DOM. Every chart is there with its title and table, the page asks
// for nothing but itself (Chromium's network log), and the console has no
// error. CI installs Chromium (.ci/run); elsewhere the test is skipped
// without it. STORECTL_REPORT_SHOTS=DIR keeps the screenshots and DOM.
func TestHTMLInHeadlessChromium(t *testing.T) {
	browser := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	var b bytes.Buffer
	r := demoReport(t, Options{ShopZone: time.FixedZone("MST", -7*3600), ShopZoneSet: true})
	if err := WriteHTML(&b, r, Meta{Store: "default (sandbox)", Made: demoNow, Loc: time.UTC}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	url := "file://" + page
	for _, shot := range []struct{ name, size string }{{"desktop.png", "1280,4200"}, {"phone.png", "390,9000"}} {
		netlog := filepath.Join(dir, shot.name+".netlog.json")
		out := run(t, browser, "--window-size="+shot.size, "--screenshot="+filepath.Join(dir, shot.name), "--log-net-log="+netlog, url)
		checkConsole(t, out)
		checkOnlyItself(t, netlog, url)
		if info, err := os.Stat(filepath.Join(dir, shot.name)); err != nil || info.Size() < 10_000 {
			t.Fatalf("screenshot %s: %v", shot.name, err)
		}
	}
	dom := run(t, browser, "--dump-dom", url)
	checkCharts(t, dom)
	keep(t, dir)
}

func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no Chromium: CI must run this test (.ci/run installs the chromium package)")
	}
	t.Skip("no Chromium on PATH")
	return ""
}

// run runs headless Chromium with a profile of its own, returning stdout
// and stderr (its log) together.
func run(t *testing.T, browser string, args ...string) string {
	t.Helper()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000"}
	cmd := exec.Command(browser, append(base, args...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("chromium %v: %v\n%s", args, err, out.String())
		}
	case <-time.After(90 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("chromium %v did not finish in 90 s\n%s", args, out.String())
	}
	return out.String()
}

// checkConsole fails on a console message of the page at error level, a
// script error, or a Content-Security-Policy refusal (a fetch the page
// tried).
func checkConsole(t *testing.T, log string) {
	t.Helper()
	bad := regexp.MustCompile(`(?i)CONSOLE.*(error|Uncaught)|Refused to (load|connect|apply|execute)|Uncaught `)
	for _, line := range strings.Split(log, "\n") {
		if bad.MatchString(line) {
			t.Errorf("console: %s", line)
		}
	}
}

// checkOnlyItself reads Chromium's network log: every request a page
// made (its initiator an origin: Chromium's own update and account checks
// have none) is for the page itself.
func checkOnlyItself(t *testing.T, netlog, self string) {
	t.Helper()
	data, err := os.ReadFile(netlog)
	if err != nil {
		t.Fatalf("no network log: %v", err)
	}
	var log struct {
		Constants struct {
			EventTypes map[string]int `json:"logEventTypes"`
		} `json:"constants"`
		Events []struct {
			Type   int            `json:"type"`
			Params map[string]any `json:"params"`
		} `json:"events"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("network log: %v", err)
	}
	start, ok := log.Constants.EventTypes["URL_REQUEST_START_JOB"]
	if !ok {
		t.Fatal("the network log names no URL_REQUEST_START_JOB events")
	}
	for _, e := range log.Events {
		u, _ := e.Params["url"].(string)
		if e.Type != start || u == "" || e.Params["initiator"] == "not an origin" || u == self {
			continue
		}
		t.Errorf("the page asked for %s", u)
	}
}

// checkCharts finds every chart in the rendered page with its title (the
// signups' an SVG image, the others lists of bars), and a table under each.
func checkCharts(t *testing.T, dom string) {
	t.Helper()
	charts := map[string]string{
		"signups": `<figure id="chart-signups"><svg [^>]*role="img"[^>]*><title id="signups-t">[^<]+</title><desc`,
	}
	for _, id := range []string{"funnel", "ages", "products"} {
		charts[id] = `<figure id="chart-` + id + `" aria-labelledby="` + id + `-t"[^>]*><figcaption><span id="` + id + `-t" class="title">[^<]+</span>.*?<ol class="bars"><li>`
	}
	for id, re := range charts {
		if !regexp.MustCompile(`(?s)` + re).MatchString(dom) {
			t.Errorf("chart %s is missing (or has no title) in the rendered page", id)
		}
	}
	if n := strings.Count(dom, "<table"); n < 5 {
		t.Errorf("%d tables, want one under each chart and the summary's", n)
	}
}

func keep(t *testing.T, dir string) {
	out := os.Getenv("STORECTL_REPORT_SHOTS")
	if out == "" {
		return
	}
	for _, name := range []string{"desktop.png", "phone.png", "report.html"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err == nil {
			err = os.WriteFile(filepath.Join(out, name), data, 0o600)
		}
		if err != nil {
			t.Errorf("keep %s: %v", name, err)
		}
	}
}
