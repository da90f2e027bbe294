package httpx

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/ratelimit"
)

// A server whose X-RateLimit-Limit is below rate_limit is paced to what it
// says: configured 30 a minute, it allows 2, so the third request waits
// for the window, the ETA counts 2 a window, and the user is told once.
func TestPaceLearnsASmallerLimitFromTheServer(t *testing.T) {
	notices := &noticeLog{}
	status := &statusLog{}
	c, _, fc := newTestClient(t, Config{Token: uniqueToken(t), Limit: ratelimit.Limit{N: 30, Per: time.Minute}, Notice: notices.add, Status: status.add},
		reply(200, `{}`, "X-RateLimit-Limit", "2", "X-RateLimit-Remaining", "1"),
		reply(200, `{}`, "X-RateLimit-Limit", "2", "X-RateLimit-Remaining", "0"),
		reply(200, `{}`, "X-RateLimit-Limit", "2", "X-RateLimit-Remaining", "1"))
	doN(t, c, 2)
	if w := fc.waits(); len(w) != 0 {
		t.Fatalf("waited within the server's budget: %v", w)
	}
	if got, want := c.PaceLeft(5), 3*c.pacer.span(); got < want-c.pacer.span() || got > want {
		t.Errorf("PaceLeft(5) = %v: the ETA must count 2 requests a window (about %v)", got, want)
	}
	doN(t, c, 1)
	if w := fc.waits(); len(w) != 1 || w[0] < time.Minute {
		t.Errorf("waits = %v, want one of about a minute", w)
	}
	doN(t, c, 1)
	if n := notices.all(); len(n) != 1 || !strings.Contains(n[0], "the server allows 2 requests a window (X-RateLimit-Limit), fewer than the 30 per 1m0s of rate_limit") {
		t.Errorf("notices = %q, want one about the learnt limit", n)
	}
	if s := status.all(); len(s) == 0 || !strings.HasPrefix(s[0], "pacing to 2 requests per 1m0s (the server's X-RateLimit-Limit; rate_limit says 30)") {
		t.Errorf("status = %q", s)
	}
}

// A limit above rate_limit changes nothing: the configured budget stays.
func TestPaceKeepsTheConfiguredLimitWhenTheServerAllowsMore(t *testing.T) {
	c, _, fc := newTestClient(t, Config{Token: uniqueToken(t), Limit: ratelimit.Limit{N: 2, Per: time.Minute}},
		reply(200, `{}`, "X-RateLimit-Limit", "60", "X-RateLimit-Remaining", "59"))
	doN(t, c, 3)
	if w := fc.waits(); len(w) != 1 {
		t.Errorf("waits = %v, want one (2 a minute)", w)
	}
}

// X-RateLimit-Remaining lower than this client's own requests explain is
// someone else using the token: their requests hold the window too.
func TestPaceCountsRequestsTheServerSawFromElsewhere(t *testing.T) {
	c, _, fc := newTestClient(t, Config{Token: uniqueToken(t), Limit: ratelimit.Limit{N: 10, Per: time.Minute}},
		reply(200, `{}`, "X-RateLimit-Limit", "10", "X-RateLimit-Remaining", "3"),
		reply(200, `{}`, "X-RateLimit-Limit", "10", "X-RateLimit-Remaining", "2"),
		reply(200, `{}`, "X-RateLimit-Limit", "10", "X-RateLimit-Remaining", "1"),
		reply(200, `{}`, "X-RateLimit-Limit", "10", "X-RateLimit-Remaining", "0"),
		reply(200, `{}`, "X-RateLimit-Limit", "10", "X-RateLimit-Remaining", "9"))
	doN(t, c, 4) // the first answer leaves 3: room for exactly 3 more
	if w := fc.waits(); len(w) != 0 {
		t.Fatalf("waited with room left: %v", w)
	}
	doN(t, c, 1)
	if w := fc.waits(); len(w) != 1 || w[0] < time.Minute-time.Second {
		t.Errorf("waits = %v, want one of about a minute", w)
	}
}

func TestBudgetHeadersAreReadStrictly(t *testing.T) {
	for _, tt := range []struct {
		limit, remaining string
		want             serverBudget
	}{
		{"30", "29", serverBudget{30, 29}},
		{" 2 ", "0", serverBudget{2, 0}},
		{"", "", serverBudget{-1, -1}},
		{"x", "-1", serverBudget{-1, -1}},
		{"99999999999", "1.5", serverBudget{-1, -1}},
	} {
		h := make(map[string][]string)
		if tt.limit != "" {
			h["X-Ratelimit-Limit"] = []string{tt.limit}
		}
		if tt.remaining != "" {
			h["X-Ratelimit-Remaining"] = []string{tt.remaining}
		}
		if got := budgetOf(h); got != tt.want {
			t.Errorf("%q/%q: %+v, want %+v", tt.limit, tt.remaining, got, tt.want)
		}
	}
	// A hostile answer cannot make the window hold more than maxForeign.
	var st paceState
	st.observe(serverBudget{1_000_000, 0}, 1, time.Minute)
	if len(st.expiries(1, time.Minute)) > maxForeign {
		t.Errorf("%d foreign requests held", len(st.expiries(1, time.Minute)))
	}
}

// The state file is rewritten only when the window changes: looking at it
// for an ETA, as every progress step does, neither writes nor fsyncs.
func TestPaceFileIsWrittenOnlyWhenTheStateChanges(t *testing.T) {
	dir := t.TempDir()
	fs, err := newFileStore(dir, uniqueToken(t))
	if err != nil {
		t.Fatal(err)
	}
	fc := newFakeClock()
	p := newPacer(ratelimit.Limit{N: 5, Per: time.Minute}, fs, &memoryStore{}, &clock{now: fc.now, sleep: fc.sleep}, &tracer{}, func(string) {}, nil)
	id, err := p.acquire(context.Background(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	p.finish(id, noBudget)
	written := writeCount(t, fs.path)
	for range 50 {
		fc.advance(time.Second)
		p.timeFor(40)
	}
	if writeCount(t, fs.path) != written {
		t.Error("the state file was rewritten by looks at the window")
	}
	fc.advance(2 * time.Minute) // the slot expires: the next acquire changes the state
	if _, err := p.acquire(context.Background(), time.Second); err != nil {
		t.Fatal(err)
	}
	if writeCount(t, fs.path) == written {
		t.Error("a new request was not recorded")
	}
}

// writeCount tells a file's writes apart: its content and modification
// time, which a write changes (the state file is rewritten in place).
func writeCount(t *testing.T, path string) string {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.ModTime().String() + string(data)
}

// The state file's name is an HMAC of the token under the install's
// random key (mode 0600), not a bare hash anyone could test a guessed
// token against; the unkeyed files of earlier versions are removed.
func TestPaceStateNameIsKeyed(t *testing.T) {
	dir := t.TempDir()
	token := uniqueToken(t)
	sum := sha256.Sum256([]byte(token))
	bare := "pace-" + hex.EncodeToString(sum[:])
	for _, old := range []string{bare + ".json", bare + ".lock"} {
		if err := os.WriteFile(filepath.Join(dir, old), []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	a, err := newFileStore(dir, token)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(a.path, hex.EncodeToString(sum[:])) {
		t.Errorf("state file %s is named by the token's bare SHA-256", a.path)
	}
	if _, err := os.Stat(filepath.Join(dir, bare+".json")); err == nil {
		t.Error("the unkeyed state of an earlier version was left behind")
	}
	info, err := os.Stat(filepath.Join(dir, keyFile))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", info, err)
	}
	b, err := newFileStore(dir, token)
	if err != nil {
		t.Fatal(err)
	}
	if a.path != b.path {
		t.Errorf("the same token got two state files: %s, %s", a.path, b.path)
	}
	other, err := newFileStore(t.TempDir(), token)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(other.path) == filepath.Base(a.path) {
		t.Error("two installs name the token's state alike: the key is not random")
	}
}
