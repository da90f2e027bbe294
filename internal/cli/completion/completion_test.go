package completion

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/output"
)

func complete(t *testing.T, fn cobra.CompletionFunc, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	t.Helper()
	cmd := &cobra.Command{Use: "get"}
	cmd.SetContext(context.Background())
	return fn(cmd, args, toComplete)
}

func values(list []cobra.Completion) []string {
	out := make([]string, len(list))
	for i, c := range list {
		out[i], _, _ = strings.Cut(c, "\t")
	}
	return out
}

func TestOneIDCompletesTheFirstPageCleanly(t *testing.T) {
	env := clitest.New(t)
	env.Sends("GET /shop-api/back-in-stock/list")
	got, dir := complete(t, OneID(env.F, Submissions), nil, "")
	if dir != cobra.ShellCompDirectiveNoFileComp {
		t.Errorf("directive = %v, want NoFileComp", dir)
	}
	if len(got) == 0 {
		t.Fatal("no ids completed from the sandbox's first page")
	}
	for _, c := range got {
		id, desc, _ := strings.Cut(c, "\t")
		if !safeID(id) {
			t.Errorf("unsafe id %q", id)
		}
		if strings.ContainsAny(desc, "\t\n\x1b") {
			t.Errorf("description %q holds a tab, newline or escape", desc)
		}
	}
	if n := len(env.Requests.Lines()); n != 1 {
		t.Errorf("made %d requests, want exactly 1 (first page only):\n%s", n, env.Requests)
	}

	// A second argument is never an id of a `get`.
	if more, _ := complete(t, OneID(env.F, Submissions), []string{"1"}, ""); more != nil {
		t.Errorf("completed %v after the one ID", more)
	}
}

func TestEverySourceCompletes(t *testing.T) {
	for name, src := range map[string]IDSource{"submissions": Submissions, "offers": Offers, "rules": Rules} {
		env := clitest.New(t)
		env.Sends(map[string]string{"submissions": "GET /shop-api/back-in-stock/list", "offers": "GET /shop-api/pre-order/list",
			"rules": "GET /shop-api/coming-soon/list"}[name])
		got, _ := complete(t, OneID(env.F, src), nil, "")
		if len(got) == 0 || !strings.Contains(got[0], "\t") {
			t.Errorf("%s: %q, want ids with descriptions", name, got)
		}
	}
}

func TestOneIDFiltersByPrefix(t *testing.T) {
	env := clitest.New(t)
	env.Sends("GET /shop-api/back-in-stock/list")
	all, _ := complete(t, OneID(env.F, Submissions), nil, "")
	first := values(all)[0]
	got, _ := complete(t, OneID(env.F, Submissions), nil, first)
	if len(got) != 1 || values(got)[0] != first {
		t.Errorf("prefix %q completed %v", first, values(got))
	}
}

func TestManyIDsLeavesOutGivenIDs(t *testing.T) {
	env := clitest.New(t)
	env.Sends("GET /shop-api/back-in-stock/list")
	all := values(must(complete(t, ManyIDs(env.F, Submissions), nil, "")))
	if len(all) < 2 {
		t.Fatalf("need two ids, got %v", all)
	}
	rest := values(must(complete(t, ManyIDs(env.F, Submissions), all[:1], "")))
	if len(rest) != len(all)-1 || rest[0] == all[0] {
		t.Errorf("after %s: %v", all[0], rest)
	}
}

func TestIDsAreSilentOnFailure(t *testing.T) {
	env := clitest.New(t, clitest.WithTokens("shop_wrong", ""))
	env.Sends("GET /shop-api/back-in-stock/list")
	got, dir := complete(t, OneID(env.F, Submissions), nil, "")
	if got != nil || dir != cobra.ShellCompDirectiveNoFileComp {
		t.Errorf("401 completed %v, %v; want nothing", got, dir)
	}
	if env.ErrOut.Len() != 0 || env.Out.Len() != 0 {
		t.Errorf("printed %q / %q", env.Out, env.ErrOut)
	}
}

func TestIDsGiveUpAfterTimeout(t *testing.T) {
	defer func(d time.Duration) { Timeout = d }(Timeout)
	Timeout = 50 * time.Millisecond
	env := clitest.New(t)
	release := make(chan struct{})
	defer close(release)
	env.F.ShopClient = func() (*shop.Client, error) {
		<-release // a keyring that never answers
		return nil, context.Canceled
	}
	start := time.Now()
	got, _ := complete(t, OneID(env.F, Submissions), nil, "")
	if got != nil || time.Since(start) > 2*time.Second {
		t.Errorf("got %v after %v; want nothing, quickly", got, time.Since(start))
	}
}

func TestCandidatesSanitiseDescriptions(t *testing.T) {
	items := [][]byte{
		[]byte(`{"id": 7, "name": "Spring\u001b]0;pwned\u0007 drop\n\tline two"}`),
		[]byte(`{"id": "7 ; rm -rf ~", "name": "hostile id"}`),
		[]byte(`{"id": "abc-1", "name": ""}`),
		[]byte(`not json`),
	}
	raw := make([]json.RawMessage, len(items))
	for i, b := range items {
		raw[i] = b
	}
	got := candidates(raw, []string{"name"}, nil, "")
	want := []string{"7\tSpring drop line two", "abc-1"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("candidates = %q, want %q", got, want)
	}
}

func TestProfiles(t *testing.T) {
	env := clitest.New(t)
	env.F.ConfigFile = func() (*config.File, error) {
		return &config.File{CurrentProfile: "eu", Profiles: map[string]map[string]string{
			"eu": {"base_url": "https://eu.example.com"},
			"us": {},
		}}, nil
	}
	got, _ := complete(t, Profiles(env.F), nil, "")
	want := []string{"eu\t(current) https://eu.example.com", "us"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("profiles = %q, want %q", got, want)
	}
	if got, _ := complete(t, ProfileArg(env.F), []string{"eu"}, ""); got != nil {
		t.Errorf("second NAME completed %q", got)
	}
	env.F.ConfigFile = func() (*config.File, error) { return nil, context.Canceled }
	if got, _ := complete(t, Profiles(env.F), nil, ""); got != nil {
		t.Errorf("unreadable config completed %q", got)
	}
}

func TestConfigKey(t *testing.T) {
	got := values(must(complete(t, ConfigKey(), nil, "ou")))
	if strings.Join(got, ",") != "output" {
		t.Errorf("keys for 'ou' = %v", got)
	}
	set := &cobra.Command{Use: "set"}
	formats, _ := ConfigKey()(set, []string{"output"}, "")
	if len(formats) != len(output.Formats) {
		t.Errorf("config set output completed %v", formats)
	}
}

func TestFixedVocabularies(t *testing.T) {
	for name, fn := range map[string]cobra.CompletionFunc{
		"output": OutputFormats(), "apply-to": ApplyTo(), "sort": CatalogSort(), "page-type": PageType(), "status": RuleStatus(),
	} {
		got, dir := complete(t, fn, nil, "")
		if len(got) < 2 || dir != cobra.ShellCompDirectiveNoFileComp {
			t.Errorf("%s: %v, %v", name, got, dir)
		}
	}
	if got := values(must(complete(t, ApplyTo(), nil, ""))); strings.Join(got, ",") != "all,product,variant,collection" {
		t.Errorf("apply-to = %v", got)
	}
	for _, c := range must(complete(t, CatalogSort(), nil, "")) {
		if !strings.Contains(c, "\t") {
			t.Errorf("sort %q has no description", c)
		}
	}
}

func TestSetup(t *testing.T) {
	env := clitest.New(t)
	root := &cobra.Command{Use: "storectl"}
	root.PersistentFlags().StringP("profile", "p", "", "")
	root.PersistentFlags().StringP("output", "o", "table", "")
	root.AddCommand(&cobra.Command{Use: "version", Run: func(*cobra.Command, []string) {}})
	Setup(root, env.F)
	for _, name := range []string{"profile", "output"} {
		if _, ok := root.GetFlagCompletionFunc(name); !ok {
			t.Errorf("--%s has no completion", name)
		}
	}

	root.SetArgs([]string{"completion", "tcsh"})
	root.SetOut(io.Discard)
	root.SilenceErrors, root.SilenceUsage = true, true
	err := root.Execute()
	if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), `"tcsh"`) {
		t.Errorf("completion tcsh: %v (exit %d), want a usage error", err, exitcode.Of(err))
	}
}

func must(list []cobra.Completion, _ cobra.ShellCompDirective) []cobra.Completion { return list }
