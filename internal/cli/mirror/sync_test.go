package mirror

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
)

func TestSummary(t *testing.T) {
	for _, tc := range []struct {
		r    mirror.PassResult
		want string
	}{
		{mirror.PassResult{Noun: "submissions", Kind: mirror.Full, Requests: 22, New: 320},
			"submissions: full pass, 22 pages, 320 new, 0 changed, 0 gone"},
		{mirror.PassResult{Noun: "submissions", Kind: mirror.Incremental, Requests: 1},
			"submissions: incremental pass, 1 page, 0 new, 0 changed"},
		{mirror.PassResult{Noun: "offers", Kind: mirror.Full, Resumed: true, Requests: 1, New: 10, Details: mirror.DetailResult{Fetched: 10}},
			"offers: continued full pass, 1 page, 10 new, 0 changed, 0 gone, 10 details fetched"},
		{mirror.PassResult{Noun: "coming-soon rules", Kind: mirror.Incremental, Requests: 2, Details: mirror.DetailResult{Failed: []string{"7"}}},
			"coming-soon rules: incremental pass, 2 pages, 0 new, 0 changed, 0 details fetched"},
		{mirror.PassResult{Noun: "submissions", Kind: mirror.Full, Requests: 23, New: 327, Gone: 2,
			Walk: shop.WalkResult{WalkState: shop.WalkState{FirstTotal: 320, LastTotal: 327, Moved: true}}},
			"submissions: full pass, 23 pages, 327 new, 0 changed, 2 gone (the list changed while it was read: 320 at the start, 327 at the end; each row stored once)"},
	} {
		if got := summary(tc.r); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

// A stopped sync says, per list, what it kept (committed rows only) and
// how to go on; lists it never reached say nothing.
func TestStopped(t *testing.T) {
	var w bytes.Buffer
	cause := errors.New("interrupted")
	err := stopped(&w, []mirror.PassResult{
		{Noun: "submissions", Requests: 30, New: 450},
		{Noun: "offers"},
	}, cause)
	if !errors.Is(err, cause) {
		t.Fatalf("err %v", err)
	}
	want := "submissions: kept 450 new and 0 changed rows from 30 pages; `storectl mirror sync` continues from there\n"
	if w.String() != want {
		t.Fatalf("got  %q\nwant %q", w.String(), want)
	}
	// An interrupted detail refresh says how many details it stored (the
	// one in flight is not), not only what its list pass read.
	for _, tc := range []struct {
		r    mirror.PassResult
		want string
	}{
		{mirror.PassResult{Noun: "submissions", Requests: 1, Details: mirror.DetailResult{Requests: 38, Fetched: 37}},
			"submissions: kept 0 new and 0 changed rows from 1 page, and 37 details; `storectl mirror sync --details` continues from there\n"},
		{mirror.PassResult{Noun: "submissions", Details: mirror.DetailResult{Requests: 1}},
			"submissions: kept 0 details; `storectl mirror sync --details` continues from there\n"},
	} {
		w.Reset()
		_ = stopped(&w, []mirror.PassResult{tc.r}, cause)
		if w.String() != tc.want {
			t.Errorf("got  %q\nwant %q", w.String(), tc.want)
		}
	}
}

func TestDetailFailures(t *testing.T) {
	s := &config.Settings{}
	if err := detailFailures([]mirror.PassResult{{Noun: "submissions"}}, s); err != nil {
		t.Fatalf("no failure: %v", err)
	}
	var ids []string
	for i := range 23 {
		ids = append(ids, string(rune('a'+i)))
	}
	err := detailFailures([]mirror.PassResult{{Noun: "submissions", Details: mirror.DetailResult{Failed: ids[:22]}},
		{Noun: "rules", Details: mirror.DetailResult{Failed: ids[22:]}}}, s)
	clitest.WantExit(t, err, exitcode.Partial)
	if !strings.HasPrefix(err.Error(), "the server refused the detail of 23 rows: submissions a, submissions b") ||
		!strings.HasSuffix(err.Error(), "submissions t and 3 more") || !strings.Contains(exitcode.HintOf(err), "mirror sync --full") {
		t.Fatalf("%v (hint %q)", err, exitcode.HintOf(err))
	}
}

// Every mirror command says the same of a damaged mirror: the file, the
// cause and `storectl mirror reset`, exit 2; mirror status agrees.
func TestDamagedMirrorSameWordsEverywhere(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/coming-soon/list")
	path := mirrorFile(t, e)
	writeDamaged(t, path)
	for name, run := range map[string]func() error{
		"status": func() error { return runStatus(context.Background(), &StatusOptions{MirrorDeps: e.F.MirrorDeps()}) },
		"query": func() error {
			return runQuery(context.Background(), &QueryOptions{MirrorDeps: e.F.MirrorDeps(), SQL: "SELECT 1"})
		},
		"sync": func() error { return runSync(context.Background(), &SyncOptions{MirrorDeps: e.F.MirrorDeps()}) },
	} {
		err := run()
		clitest.WantExit(t, err, exitcode.Usage)
		if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "it is not a SQLite database") ||
			!strings.Contains(exitcode.HintOf(err), "`storectl mirror reset`") {
			t.Errorf("%s: %v (hint %q)", name, err, exitcode.HintOf(err))
		}
	}
	e.In.WriteString("")
	if err := runReset(context.Background(), &ResetOptions{IO: e.IO, Settings: e.F.Settings, Yes: true}); err != nil {
		t.Fatal(err)
	}
	if err := runSync(context.Background(), &SyncOptions{MirrorDeps: e.F.MirrorDeps(), Groups: []string{"comingsoon"}}); err != nil {
		t.Fatalf("after reset: %v", err)
	}
}

// The rows, details and form fields sent with bytes that are not UTF-8
// are named, a line for each kind, their ids quoted (an id may hold
// anything), as the odd rows are.
func TestRepairedRowsAreNamed(t *testing.T) {
	var b strings.Builder
	notUTF8(&b, mirror.PassResult{Noun: "submissions", Repaired: []string{"5", "\x00 7"},
		Details: mirror.DetailResult{Repaired: []string{"6"}}, FormRepaired: []string{"note"}})
	want := `warning: submissions: 2 rows sent with bytes that are not UTF-8 (so not JSON) kept with U+FFFD in their place: ids "5", "\x00 7"
warning: submissions: 1 detail sent with bytes that are not UTF-8 (so not JSON) kept with U+FFFD in their place: ids "6"
warning: back-in-stock form: 1 field sent with bytes that are not UTF-8 (so not JSON) kept with U+FFFD in their place: ids "note"
`
	if got := b.String(); got != want {
		t.Fatalf("got\n%swant\n%s", got, want)
	}
}
