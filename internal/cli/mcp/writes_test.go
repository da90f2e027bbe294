package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	mcpcmd "github.com/storectl/storectl/internal/cli/mcp"
)

func launches(names ...string) []any {
	var rules []any
	for i, n := range names {
		rules = append(rules, map[string]any{"name": n, "start_date": "2027-0" + string(rune('1'+i)) + "-01T09:00:00Z", "apply_to": "all", "status": 1})
	}
	return rules
}

// storeRules are the names of the store's coming-soon rules, asked of
// the store.
func storeRules(t *testing.T) map[string]int {
	t.Helper()
	var rules []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(cli(t, "-o", "json", "comingsoon", "list", "--all"), &rules); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, r := range rules {
		count[r.Name]++
	}
	return count
}

// A plan is applied exactly, once, before it expires; a plan the store
// moved away from is refused, nothing sent.
func TestPlanIsAppliedOnceBeforeItExpires(t *testing.T) {
	isolate(t)
	t.Setenv("STORECTL_SANDBOX", "1")
	now := time.Now()
	clock := func() time.Time { return now }
	s := serve(t, mcpcmd.Options{Globals: []string{"--sandbox=true"}, AllowWrites: true, Now: clock})

	plan := s.ok("comingsoon_plan", map[string]any{"rules": launches("MCP launch A", "MCP launch B")})
	data := plan.v["data"].(map[string]any)
	id := data["plan_id"].(string)
	if !strings.Contains(data["summary"].(string), "2 to create") || plan.v["returned"] != json.Number("2") {
		t.Fatalf("the plan: %s", plan.text)
	}
	if n := storeRules(t)["MCP launch A"]; n != 0 {
		t.Fatalf("a plan sent a write: %d rules", n)
	}
	applied := s.ok("comingsoon_apply", map[string]any{"plan_id": id})
	if applied.v["data"].(map[string]any)["outcome"] != "applied" || applied.v["requests_sent"] != json.Number("2") {
		t.Errorf("the apply: %s", applied.text)
	}
	if got := storeRules(t); got["MCP launch A"] != 1 || got["MCP launch B"] != 1 {
		t.Errorf("after the apply the store has %v", got)
	}
	again := s.call("comingsoon_apply", map[string]any{"plan_id": id})
	if !again.isError || !strings.Contains(again.text, "a plan is applied once") || !strings.Contains(again.text, "exit code 2") {
		t.Errorf("the plan applied twice: %s", again.text)
	}

	late := s.ok("comingsoon_plan", map[string]any{"rules": launches("MCP launch C")}).v["data"].(map[string]any)["plan_id"].(string)
	now = now.Add(11 * time.Minute)
	if r := s.call("comingsoon_apply", map[string]any{"plan_id": late}); !r.isError || !strings.Contains(r.text, "expired") {
		t.Errorf("a plan applied after it expired: %s", r.text)
	}

	moved := s.ok("comingsoon_plan", map[string]any{"rules": launches("MCP launch D")}).v["data"].(map[string]any)["plan_id"].(string)
	cli(t, "comingsoon", "create", "--name", "MCP launch D", "--start", "2027-05-01T09:00:00Z", "--apply-to", "all", "-q")
	if r := s.call("comingsoon_apply", map[string]any{"plan_id": moved}); !r.isError || !strings.Contains(r.text, "changed since the plan was made") {
		t.Errorf("a plan the store moved away from: %s", r.text)
	}
	if got := storeRules(t)["MCP launch D"]; got != 1 {
		t.Errorf("the refused plan changed the store: %d rules named D", got)
	}
	if r := s.call("comingsoon_apply", map[string]any{"plan_id": "0123456789abcdef01234567"}); !r.isError || !strings.Contains(r.text, "there is no plan") {
		t.Errorf("an unknown plan: %s", r.text)
	}
	other := serve(t, mcpcmd.Options{Globals: []string{"--sandbox=true"}, AllowWrites: true, Profiles: []string{"other"}})
	if r := other.call("comingsoon_apply", map[string]any{"plan_id": late}); !r.isError || !strings.Contains(r.text, `made for profile "default"`) {
		t.Errorf("a plan applied to another store: %s", r.text)
	}
}

// An apply stopped part way (the client gave up) is continued by the next
// call with the same plan, from its journal: no rule is created twice.
func TestApplyStoppedPartWayContinues(t *testing.T) {
	isolate(t)
	t.Setenv("STORECTL_SANDBOX", "1")
	s := serve(t, mcpcmd.Options{Globals: []string{"--sandbox=true"}, AllowWrites: true})
	names := []string{"MCP resume 1", "MCP resume 2", "MCP resume 3", "MCP resume 4"}
	id := s.ok("comingsoon_plan", map[string]any{"rules": launches(names...)}).v["data"].(map[string]any)["plan_id"].(string)

	// Paced at 2 requests a second, the creates take a while: stop the
	// call once the journal shows the first rule created.
	t.Setenv("STORECTL_RATE_LIMIT", "2/1s")
	state, _ := os.UserHomeDir()
	journal := filepath.Join(state, ".local", "state", "storectl", "mcp-plans", id, "journal.csv")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for ctx.Err() == nil {
			if raw, _ := os.ReadFile(journal); strings.Contains(string(raw), ",created,") {
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	_, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: "comingsoon_apply", Arguments: map[string]any{"plan_id": id}})
	cancel()
	if err == nil {
		t.Fatal("the apply was not stopped")
	}
	t.Setenv("STORECTL_RATE_LIMIT", "0")
	// The stopped call lets go of the plan once its command has stopped.
	r := s.call("comingsoon_apply", map[string]any{"plan_id": id})
	for i := 0; r.isError && strings.Contains(r.text, "being applied by another call") && i < 500; i++ {
		time.Sleep(10 * time.Millisecond)
		r = s.call("comingsoon_apply", map[string]any{"plan_id": id})
	}
	if r.isError {
		t.Fatalf("the second call: %s", r.text)
	}
	if r.v["data"].(map[string]any)["resumed"] != true {
		t.Errorf("the second call did not continue the first: %s", r.text)
	}
	got := storeRules(t)
	for _, n := range names {
		if got[n] != 1 {
			t.Errorf("%s: %d rules", n, got[n])
		}
	}
}

// The two steps on a store whose mirror is a team's PostgreSQL database:
// the writes go to the store, never through the mirror.
func TestPlanAndApplyBesideAPostgreSQLMirror(t *testing.T) {
	isolate(t)
	httpStore(t, nil, nil)
	t.Setenv("STORECTL_MIRROR_URL", pgOwnedDB(t))
	cli(t, "mirror", "sync", "comingsoon", "-q")
	s := serve(t, mcpcmd.Options{AllowWrites: true})
	id := s.ok("comingsoon_plan", map[string]any{"rules": launches("MCP on PostgreSQL")}).v["data"].(map[string]any)["plan_id"].(string)
	s.ok("comingsoon_apply", map[string]any{"plan_id": id})
	if got := storeRules(t)["MCP on PostgreSQL"]; got != 1 {
		t.Errorf("%d rules", got)
	}
	s.ok("mirror_sync", map[string]any{"lists": []string{"comingsoon"}})
	if r := s.ok("comingsoon_rules", map[string]any{"limit": 200}); !strings.Contains(r.text, `"name":"MCP on PostgreSQL"`) {
		t.Errorf("the mirror after a sync lacks the new rule: %s", clip([]byte(r.text)))
	}
}
