package mcp

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/output"
)

// fakeRunner answers every command with items, or panics, or fails.
type fakeRunner func(c Call) (*Answer, error)

func (f fakeRunner) Run(_ context.Context, c Call) (*Answer, error) { return f(c) }

func connect(t *testing.T, o Options) *sdk.ClientSession {
	t.Helper()
	o.PlanDir = t.TempDir()
	srv, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := sdk.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Close() })
	return cs
}

func textOf(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		b.WriteString(c.(*sdk.TextContent).Text)
	}
	return b.String()
}

// A command that panics is a tool error, and the server answers the next
// call; a command that only set an exit code is explained by what it said.
func TestNoCallCrashesTheServer(t *testing.T) {
	var log strings.Builder
	cs := connect(t, Options{Profiles: []string{"eu"}, Log: &log, Runner: fakeRunner(func(c Call) (*Answer, error) {
		switch c.Args[1] {
		case "find":
			panic("boom")
		case "demand":
			c.Say("2 of 3 stores answered")
			return nil, &exitcode.Silent{Code: exitcode.Partial}
		}
		return &Answer{Parts: []output.Part{{Single: true, Items: []json.RawMessage{json.RawMessage(`{"path":"/x","resources":[]}`)}}}}, nil
	})})
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "find_submissions", Arguments: map[string]any{}})
	if err != nil || !res.IsError || !strings.Contains(textOf(res), "a bug") {
		t.Errorf("a panic: %v %v", textOf(res), err)
	}
	if !strings.Contains(log.String(), "panicked: boom") {
		t.Errorf("the log says nothing of the panic:\n%s", log.String())
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "demand", Arguments: map[string]any{}})
	if err != nil || !res.IsError || !strings.Contains(textOf(res), "error: 2 of 3 stores answered") || !strings.Contains(textOf(res), "exit code 5") {
		t.Errorf("an exit code alone: %v %v", textOf(res), err)
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "mirror_status", Arguments: map[string]any{}})
	if err != nil || res.IsError || strings.Contains(textOf(res), "/x") {
		t.Errorf("the next call: %v %v", textOf(res), err)
	}
}

// --tools serves the tools named; a write tool only with --allow-writes.
func TestToolsChoice(t *testing.T) {
	runner := fakeRunner(func(Call) (*Answer, error) { return &Answer{}, nil })
	o := Options{Profiles: []string{"eu"}, Runner: runner, Log: io.Discard, Tools: []string{"demand", "find_submissions"}}
	cs := connect(t, o)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(res.Tools) != 2 {
		t.Errorf("--tools demand,find_submissions lists %v (%v)", res, err)
	}
	for _, bad := range [][]string{{"bogus"}, {"comingsoon_apply"}} {
		o.Tools = bad
		if _, err := New(o); err == nil {
			t.Errorf("--tools %v was taken", bad)
		}
	}
}

// Memory goes back once the calls have stopped for a while, not while one
// runs.
func TestIdleReleasesMemoryOnlyWhenNoCallRuns(t *testing.T) {
	released := make(chan struct{}, 4)
	i := &idle{release: func() { released <- struct{}{} }}
	i.begin()
	i.begin()
	i.end()
	select {
	case <-released:
		t.Fatal("released while a call runs")
	case <-time.After(idleAfter + 200*time.Millisecond):
	}
	i.end()
	<-released
}
