package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
)

// The pages whose examples run: the README and every guide in docs/ (the
// command reference is generated from the commands' own help).
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../../README.md"}, pages...)
}

// TestDocsExamplesRunAgainstTheSandbox runs every ```sh block of every page,
// in order, in one shell per page (so an export or a file made by one block
// is there for the next), against the sandbox (STORECTL_SANDBOX=1), in a
// fresh home and working directory, on 7 December 2026 (the demo's dated
// data), in UTC. Each command must succeed, unless the page says otherwise
// in an HTML comment just before the block (see docDirective); a block
// followed directly by an output block must print that output (stdout and
// stderr as a terminal interleaves them): a line "…" stands for any number of lines, "…" inside a line for
// any text.
func TestDocsExamplesRunAgainstTheSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every page's examples")
	}
	var skipped []string
	ran := 0
	for _, path := range docPages(t) {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(path, "../../")
		blocks, err := parseDocBlocks(string(text))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, b := range blocks {
			if b.skip != "" {
				skipped = append(skipped, fmt.Sprintf("%s:%d (%s)", name, b.line, b.skip))
			} else if b.lang == "sh" {
				ran++
			}
		}
		t.Run(name, func(t *testing.T) { runDocPage(t, blocks) })
	}
	// Rare and said: an example is skipped only with its reason, and no
	// more of them than maxSkippedExamples.
	t.Logf("%d blocks run; %d skipped: %s", ran, len(skipped), strings.Join(skipped, "; "))
	if len(skipped) > maxSkippedExamples {
		t.Errorf("%d example blocks are skipped, more than the %d allowed: make the new ones run against the sandbox (or raise maxSkippedExamples, saying why): %s",
			len(skipped), maxSkippedExamples, strings.Join(skipped, "; "))
	}
}

// maxSkippedExamples is how many example blocks may be marked skip: those
// that install software or run a service manager, need a real store's
// login or a host on the internet, or take minutes (benchmarks, a
// release). Raising it is a choice a review should see.
const maxSkippedExamples = 23

// A docBlock is a fenced block of a page, with what the comments before
// it say about it.
type docBlock struct {
	line  int // the page line of its opening fence
	lang  string
	body  string
	after bool // only blank lines separate it from the block before
	// From the directives (<!-- test: … -->) just before it:
	skip  string // "skip: REASON": not run, for that reason
	file  string // "file NAME": its text is written to NAME, then the page goes on
	exits int    // "exits N": a command of it exits N (the others 0)
	psql  string // "psql ROLE": an sql block psql runs as ROLE (postgres: the superuser)
}

// docDirective is the form of the comments that tell the test about the
// block below them. They are rare by design: most blocks need none.
var docDirective = regexp.MustCompile(`^<!-- test: (.*) -->$`)

// parseDocBlocks reads the fenced blocks of a page (a fence may be
// indented, inside a list item) and the directives before them.
func parseDocBlocks(page string) ([]docBlock, error) {
	lines := strings.Split(page, "\n")
	var blocks []docBlock
	var pending []string
	pendingAt := 0
	gapOnly := false // since the last block's closing fence only blank lines
	for i := 0; i < len(lines); i++ {
		trimmed := strings.TrimSpace(lines[i])
		if m := docDirective.FindStringSubmatch(trimmed); m != nil {
			pending, pendingAt = append(pending, m[1]), i+1
			gapOnly = false
			continue
		}
		if !strings.HasPrefix(trimmed, "```") {
			if trimmed != "" {
				if len(pending) > 0 {
					return nil, fmt.Errorf("line %d: the directive %q is not just before a block", pendingAt, pending[0])
				}
				gapOnly = false
			}
			continue
		}
		indent := strings.Index(lines[i], "```")
		b := docBlock{line: i + 1, lang: strings.TrimSpace(trimmed[3:]), after: gapOnly && len(blocks) > 0}
		var body []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			l := lines[i]
			if len(l) >= indent && strings.TrimSpace(l[:indent]) == "" {
				l = l[indent:]
			}
			body = append(body, l)
		}
		if i == len(lines) {
			return nil, fmt.Errorf("line %d: the block is not closed", b.line)
		}
		b.body = strings.Join(body, "\n")
		for _, d := range pending {
			verb, arg, _ := strings.Cut(d, " ")
			switch {
			case verb == "skip:" && strings.TrimSpace(arg) != "":
				b.skip = strings.TrimSpace(arg)
			case verb == "file" && arg != "" && !strings.ContainsAny(arg, "/ "):
				b.file = arg
			case verb == "psql" && regexp.MustCompile(`^[a-z_]+$`).MatchString(arg):
				b.psql = arg
			case verb == "exits":
				n, err := strconv.Atoi(arg)
				if err != nil || n <= 0 {
					return nil, fmt.Errorf("line %d: %q: exits takes an exit code", b.line, d)
				}
				b.exits = n
			default:
				return nil, fmt.Errorf("line %d: unknown directive %q (skip: REASON, file NAME, exits N, psql ROLE)", b.line, d)
			}
		}
		if b.lang != "sh" && b.exits != 0 {
			return nil, fmt.Errorf("line %d: exits is for sh blocks", b.line)
		}
		if b.psql != "" && b.lang != "sql" {
			return nil, fmt.Errorf("line %d: psql is for sql blocks", b.line)
		}
		pending = nil
		blocks = append(blocks, b)
		gapOnly = true
	}
	if len(pending) > 0 {
		return nil, fmt.Errorf("line %d: the directive %q is before no block", pendingAt, pending[0])
	}
	return blocks, nil
}

// isOutput reports whether a block shows what the block before it
// printed: a plain or json block right after a run sh block, and not a
// transcript of commands of its own ("$ storectl …").
func (b docBlock) isOutput(prev docBlock) bool {
	return b.after && (b.lang == "" || b.lang == "json") && prev.lang == "sh" && prev.skip == "" &&
		!strings.HasPrefix(b.body, "$ ")
}

// runDocPage runs a page's blocks in one bash, each command's failure
// caught by an ERR trap, each sh block's output kept for the block that
// may follow it.
func runDocPage(t *testing.T, blocks []docBlock) {
	work := t.TempDir()
	home := filepath.Join(work, ".home")
	results := filepath.Join(work, ".results")
	for _, d := range []string{home, results} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	port := freeLoopbackPort(t)
	page := &docPage{port: port, results: results, env: docPageEnv(home),
		rewrite: func(text string) string { return withPort(text, port) }}
	if slices.ContainsFunc(blocks, func(b docBlock) bool { return b.psql != "" && b.skip == "" }) {
		page.onPostgres(t, home)
	}
	script, runs := page.script(blocks)
	if len(runs) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	scriptPath := filepath.Join(results, "page.sh")
	if err := os.WriteFile(scriptPath, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, "bash", "--noprofile", "--norc", scriptPath)
	cmd.Dir = work
	cmd.Env = page.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		current, _ := os.ReadFile(filepath.Join(results, "current"))
		t.Fatalf("the page's examples did not finish in 4 minutes; the block at line %s was running\n%s", strings.TrimSpace(string(current)), out)
	}
	if _, done := os.Stat(filepath.Join(results, "finished")); err != nil || done != nil {
		current, _ := os.ReadFile(filepath.Join(results, "current"))
		t.Fatalf("the page's shell stopped (%v) in the block at line %s (an exit, or a set -e?)\n%s\nthe script:\n%s",
			err, strings.TrimSpace(string(current)), out, numbered(script))
	}
	failures := readDocFailures(t, filepath.Join(results, "failures"))
	for i, b := range blocks {
		r, ok := runs[i]
		if !ok {
			continue
		}
		out, _ := os.ReadFile(filepath.Join(results, strconv.Itoa(i)+".out"))
		printed := string(out)
		shown := abridged(printed)
		var unexpected []string
		sawExpected := false
		for _, f := range failures[i] {
			if b.exits != 0 && f.code == b.exits {
				sawExpected = true
				continue
			}
			unexpected = append(unexpected, fmt.Sprintf("line %d exits %d", b.line+f.scriptLine-r.firstLine+1, f.code))
		}
		if len(unexpected) > 0 {
			t.Errorf("block at line %d: %s; it printed:\n%s", b.line, strings.Join(unexpected, ", "), shown)
		}
		if b.exits != 0 && !sawExpected {
			t.Errorf("block at line %d: the page says a command exits %d, but none did; it printed:\n%s", b.line, b.exits, shown)
		}
		if i+1 < len(blocks) && blocks[i+1].isOutput(b) {
			want := strings.Split(strings.TrimRight(page.rewrite(blocks[i+1].body), "\n"), "\n")
			if !matchesSample(strings.Split(strings.TrimRight(printed, "\n"), "\n"), want) {
				t.Errorf("block at line %d prints\n%s\nbut the page shows (line %d)\n%s", b.line, shown, blocks[i+1].line, strings.Join(want, "\n"))
			}
		}
	}
}

func numbered(text string) string {
	var b strings.Builder
	for i, l := range strings.Split(text, "\n") {
		fmt.Fprintf(&b, "%4d %s\n", i+1, l)
	}
	return b.String()
}

// abridged keeps a long output's first and last lines.
func abridged(printed string) string {
	lines := strings.Split(strings.TrimRight(printed, "\n"), "\n")
	if len(lines) <= 40 {
		return strings.Join(lines, "\n")
	}
	return strings.Join(lines[:10], "\n") + fmt.Sprintf("\n[… %d lines …]\n", len(lines)-30) + strings.Join(lines[len(lines)-20:], "\n")
}

// A docRun is where a run block's body starts in the page's script.
type docRun struct{ firstLine int }

type docFailure struct{ scriptLine, code int }

// A docPage is how a page runs here.
type docPage struct {
	port    int    // where a served sandbox listens (the page's 127.0.0.1:8787)
	results string // the directory of each block's output and the failures
	env     []string
	// rewrite is what a block's text becomes here: the port, and on
	// PostgreSQL the test's server, database and roles.
	rewrite func(string) string
	psqlURL func(role string) string
	prelude []string // what runs before the page's first block
}

// script is the page as one bash script: files written, sh blocks run
// with their output kept in results/N.out, sql blocks run by psql, and
// every failing command (an ERR trap: not those tested by if, && or ||)
// recorded with its block and line. A sandbox serve runs in the
// background, as in a second terminal: the page goes on once it listens,
// and at its end it is interrupted and must then exit 0 or 130. A watch
// or an MCP server runs for a second, then is interrupted the same way.
func (p *docPage) script(blocks []docBlock) (string, map[int]docRun) {
	var s strings.Builder
	lines := 0
	add := func(text string) {
		s.WriteString(text)
		s.WriteString("\n")
		lines += strings.Count(text, "\n") + 1
	}
	add("set -o pipefail")
	add("R=" + shellQuote(p.results))
	add("PORT=" + strconv.Itoa(p.port))
	add("services=()")
	// go run and go install of this module's storectl are the storectl under
	// test (already on PATH); go env answers. Whatever else a page would
	// install, build or change outside its directory fails, and says so: a
	// block that needs it is marked skip.
	add(`go() { case "$1 $2" in "run ./cmd/storectl") shift 2; storectl "$@"; return;; "install ./cmd/storectl"|"install github.com/storectl/storectl/cmd/storectl@"*) return 0;; env*) command go "$@"; return;; esac; echo "go $1: not run by the docs test" >&2; return 127; }`)
	for _, c := range []string{"sudo", "su", "brew", "apt", "apt-get", "dnf", "systemctl", "launchctl", "goreleaser", "cosign", "make", "git", "datasette"} {
		add(fmt.Sprintf(`%s() { echo "%s: not run by the docs test" >&2; return 127; }`, c, c))
	}
	add(`wait_port() { for _ in $(seq 200); do (exec 5<>/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && return 0; sleep 0.05; done; echo "nothing listens on 127.0.0.1:$PORT" >&2; }`)
	add(`trap 'echo "$B $LINENO $?" >>"$R/failures"' ERR`)
	for _, l := range p.prelude {
		add("B=-1; " + l)
	}
	runs := map[int]docRun{}
	for i, b := range blocks {
		switch {
		case b.skip != "":
			continue
		case b.file != "":
			add(fmt.Sprintf("B=-1; printf '%%s\\n' %s > %s", shellQuote(p.rewrite(b.body)), shellQuote(b.file)))
			continue
		case b.psql != "":
			add(fmt.Sprintf(`B=%d; echo %d > "$R/current"; exec >"$R/%d.out" 2>&1 </dev/null`, i, b.line, i))
			add(fmt.Sprintf("printf '%%s\\n' %s > \"$R/%d.sql\"", shellQuote(p.rewrite(b.body)), i))
			runs[i] = docRun{firstLine: lines + 1}
			add(fmt.Sprintf(`psql -X -q -v ON_ERROR_STOP=1 -d %s -f "$R/%d.sql"`, shellQuote(p.psqlURL(b.psql)), i))
			continue
		case b.lang != "sh":
			continue
		}
		body := p.rewrite(b.body)
		add(fmt.Sprintf(`B=%d; echo %d > "$R/current"; exec >"$R/%d.out" 2>&1 </dev/null`, i, b.line, i))
		if strings.HasPrefix(body, "#!") {
			// A script of its own: its set -e or exit must not end the page.
			add("(")
			runs[i] = docRun{firstLine: lines + 1}
			add(body)
			add(")")
			continue
		}
		runs[i] = docRun{firstLine: lines + 1}
		for _, l := range logicalLines(body) {
			if !isDocService(l) {
				add(l)
				continue
			}
			// One line, so that the script's lines stay the page's.
			l = strings.TrimSuffix(strings.TrimRight(withoutComment(l), " "), "&")
			oneLine := strings.ReplaceAll(l, "\\\n", " ")
			if strings.Contains(l, "sandbox serve") {
				add(fmt.Sprintf(`%s & services+=("$! $B $LINENO"); wait_port`, oneLine))
			} else {
				// A watch or an MCP server, tried as a reader would: started,
				// then stopped with Ctrl-C before the page goes on. Its 130
				// (stopped during its first sync, on a slow machine) is
				// fine: the wait is tested by ||, so the ERR trap is not.
				add(fmt.Sprintf(`%s & p=$!; sleep 1; kill -INT $p 2>/dev/null; rc=0; wait $p || rc=$?; case $rc in 0|130) ;; *) echo "$B $LINENO $rc" >>"$R/failures";; esac`, oneLine))
			}
			for range strings.Count(l, "\n") {
				add("")
			}
		}
	}
	add("B=-1; trap - ERR; exec >/dev/null 2>&1")
	add(`for s in "${services[@]}"; do kill -INT ${s%% *} 2>/dev/null; done`)
	add(`for s in "${services[@]}"; do wait ${s%% *}; rc=$?; case $rc in 0|130) ;; *) echo "${s#* } $rc" >>"$R/failures";; esac; done`)
	add(`echo ok > "$R/finished"`)
	return s.String(), runs
}

// onPostgres makes the page a team's, as docs/team-mirror.md sets one up:
// the test's PostgreSQL server stands for the page's db.internal, a new
// database (made as the page says: C.UTF-8, from template0) for its
// storectl, and its roles get a suffix of their own, so that pages and
// other tests share the server; their passwords (the page's '…') are in
// ~/.pgpass, as the page advises. The store is the sandbox
// served over HTTP, as a real one (a team's mirror is never the
// sandbox's): the profile reaches it through STORECTL_BASE_URL and
// STORECTL_SHOP_TOKEN, unpaced, and has been used before: it has a local
// mirror, which the page moves.
func (p *docPage) onPostgres(t *testing.T, home string) {
	server, err := pgtest.ServerURL()
	if err != nil {
		pgtest.Skip(t, err)
	}
	u, err := url.Parse(server)
	if err != nil {
		t.Fatal(err)
	}
	db, suffix := "docs_"+pgtest.RandomName(), "_"+pgtest.RandomName()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := pgtest.Exec(ctx, server, "CREATE DATABASE "+db+" LOCALE 'C.UTF-8' TEMPLATE template0"); err != nil {
		t.Fatalf("create the page's database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		stmts := []string{"DROP DATABASE IF EXISTS " + db + " WITH (FORCE)"}
		for _, r := range []string{"owner", "writer", "reader"} {
			stmts = append(stmts, "DROP ROLE IF EXISTS storectl_"+r+suffix)
		}
		if err := pgtest.Exec(ctx, server, stmts...); err != nil {
			t.Logf("drop the page's database and roles: %v", err)
		}
	})
	if err := os.WriteFile(filepath.Join(home, ".pgpass"), []byte(u.Host+":*:*:docs-pw\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	byPort := p.rewrite
	p.rewrite = func(text string) string {
		text = teamRoleSQL(byPort(text), suffix, "docs-pw", db)
		text = strings.ReplaceAll(text, "@db.internal/storectl", "@"+u.Host+"/"+db)
		return strings.ReplaceAll(text, "sslmode=verify-full", "sslmode=disable")
	}
	p.psqlURL = func(role string) string {
		if role == "postgres" {
			return pgtest.WithDatabase(server, db)
		}
		return "postgresql://" + role + suffix + "@" + u.Host + "/" + db + "?sslmode=disable"
	}
	env := slices.DeleteFunc(p.env, func(kv string) bool { return strings.HasPrefix(kv, "STORECTL_SANDBOX=") })
	p.env = append(env, "STORECTL_BASE_URL=http://127.0.0.1:"+strconv.Itoa(p.port), "STORECTL_SHOP_TOKEN=shop_sandbox_demo",
		"STORECTL_RATE_LIMIT=0", "PGPASSFILE="+filepath.Join(home, ".pgpass"))
	p.prelude = append(p.prelude, `storectl sandbox serve --memory --throttle 0 --addr 127.0.0.1:$PORT >"$R/store.log" 2>&1 & services+=("$! -1 0"); wait_port`,
		`storectl mirror sync -q >>"$R/store.log" 2>&1`)
}

// isDocService reports a command that serves until stopped: storectl
// sandbox serve, storectl watch (not --once, not watch events) and
// storectl mcp (not --print-config), at the start of a line, after
// variable assignments.
func isDocService(line string) bool {
	fields := strings.Fields(strings.ReplaceAll(line, "\\\n", " "))
	for len(fields) > 0 && regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`).MatchString(fields[0]) {
		fields = fields[1:]
	}
	if len(fields) == 0 || fields[0] != "storectl" {
		return false
	}
	has := func(flag string) bool {
		for _, f := range fields {
			if f == flag || strings.HasPrefix(f, flag+"=") {
				return true
			}
		}
		return false
	}
	nouns := "api auth bis catalog comingsoon completion config help mcp mirror preorder profile sandbox version watch"
	for i, f := range fields[1:] {
		if !strings.Contains(" "+nouns+" ", " "+f+" ") {
			continue
		}
		next := ""
		if i+2 < len(fields) {
			next = fields[i+2]
		}
		switch f {
		case "sandbox":
			return next == "serve"
		case "watch":
			return next != "events" && !has("--once")
		case "mcp":
			return !has("--print-config")
		}
		return false
	}
	return false
}

// withoutComment is a command line without its trailing # comment (a #
// that starts a word outside quotes).
func withoutComment(line string) string {
	var quote rune
	prev := ' '
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && (prev == ' ' || prev == '\t'):
			return line[:i]
		}
		prev = r
	}
	return line
}

// logicalLines joins the lines a trailing backslash continues, keeping
// the newline so that the line count stays.
func logicalLines(body string) []string {
	var out []string
	cur := ""
	for _, l := range strings.Split(body, "\n") {
		if strings.HasSuffix(l, "\\") {
			cur += l + "\n"
			continue
		}
		out = append(out, cur+l)
		cur = ""
	}
	if cur != "" {
		out = append(out, strings.TrimSuffix(cur, "\n"))
	}
	return out
}

// withPort puts the test's free port where a page says the sandbox's
// default, 127.0.0.1:8787, so that pages can run side by side.
func withPort(text string, port int) string {
	text = strings.ReplaceAll(text, "127.0.0.1:8787", "127.0.0.1:"+strconv.Itoa(port))
	return regexp.MustCompile(`storectl sandbox serve\b([^\n]*)`).ReplaceAllStringFunc(text, func(m string) string {
		if strings.Contains(m, "--addr") {
			return m
		}
		return strings.Replace(m, "sandbox serve", "sandbox serve --addr 127.0.0.1:"+strconv.Itoa(port), 1)
	})
}

func readDocFailures(t *testing.T, path string) map[int][]docFailure {
	t.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		t.Fatal(err)
	}
	out := map[int][]docFailure{}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var block, line, code int
		if _, err := fmt.Sscanf(l, "%d %d %d", &block, &line, &code); err != nil {
			t.Fatalf("failures file: %q: %v", l, err)
		}
		out[block] = append(out[block], docFailure{scriptLine: line, code: code})
	}
	for _, f := range out {
		sort.Slice(f, func(i, j int) bool { return f[i].scriptLine < f[j].scriptLine })
	}
	return out
}

// docPageEnv is a clean environment: this test binary's storectl and the
// system's tools on PATH, a fresh home, the sandbox, UTC, a fixed clock.
func docPageEnv(home string) []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TZ=UTC", "NO_COLOR=1", "LANG=C.UTF-8",
		"STORECTL_SANDBOX=1", "STORECTL_TEST_NOW=2026-12-07T12:00:00Z",
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"DBUS_SESSION_BUS_ADDRESS=unix:path=" + filepath.Join(home, "no-dbus"),
		"GOPATH=" + filepath.Join(home, "go"), "GOCACHE=" + goEnv("GOCACHE"), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local"}
}

func goEnv(key string) string {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func freeLoopbackPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// matchesSample reports whether got matches want line by line, a want line
// of "…" (indented or not) matching any run of lines and "…" inside a line
// any text.
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
	return len(got) > 0 && lineMatches(got[0], want[0]) && matchesSample(got[1:], want[1:])
}

func lineMatches(got, want string) bool {
	if !strings.Contains(want, "…") {
		return got == want
	}
	parts := strings.Split(want, "…")
	pattern := "^"
	for i, p := range parts {
		if i > 0 {
			pattern += ".*"
		}
		pattern += regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(pattern + "$").MatchString(got)
}
