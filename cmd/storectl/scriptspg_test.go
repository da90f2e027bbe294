package main

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
)

// mirrorScripts are the scripts whose commands read or write a profile's
// mirror (the sandbox's, --sandbox, always stays local): TestScriptsOnPostgres
// runs them a second time with the mirror on PostgreSQL. One that cannot run
// there says why with [pgmirror] skip, or keeps its SQLite-only lines
// behind [!pgmirror]. The team_* scripts are PostgreSQL's already.
var mirrorScripts = []string{
	"bis_export_not_utf8",
	"edges_paging_growth",
	"integrity_paging",
	"many_stores",
	"mirror_deferred_indexes",
	"mirror_export",
	"mirror_odd_ids",
	"mirror_refresh",
	"mirror_sync",
	"mirror_sync_not_utf8",
	"preorder_products_why",
	"profile",
	"trust_pace_wait",
	"trust_signals",
	"trust_transport",
	"watch_alert",
	"watch_forward",
	"watch_hostile",
	"watch_profiles",
	"xlsx_export",
	"xlsx_many_stores",
}

// TestScriptsOnPostgres runs the scripts that touch a profile's mirror with
// STORECTL_MIRROR_URL set: each script gets a database of its own on the
// test's PostgreSQL server, owned by a login role of its own that is no
// superuser (a team's owner role: mirror query refuses a superuser).
func TestScriptsOnPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the mirror's scripts a second time")
	}
	server, err := pgtest.ServerURL()
	if err != nil {
		pgtest.Skip(t, err)
	}
	p := scriptParams(true)
	p.Dir = ""
	for _, name := range mirrorScripts {
		p.Files = append(p.Files, filepath.Join("testdata", "script", name+".txtar"))
	}
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if err := setup(env); err != nil {
			return err
		}
		name := "tsp_" + pgtest.RandomName()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := pgtest.Exec(ctx, server, "CREATE ROLE "+name+" LOGIN PASSWORD 'script-pw'",
			"CREATE DATABASE "+name+" OWNER "+name); err != nil {
			return err
		}
		env.Defer(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			_ = pgtest.Exec(ctx, server, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)", "DROP ROLE IF EXISTS "+name)
		})
		u, err := url.Parse(pgtest.WithDatabase(server, name))
		if err != nil {
			return err
		}
		u.User = url.UserPassword(name, "script-pw")
		env.Setenv("STORECTL_MIRROR_URL", u.String())
		// A sync a script kills leaves its lease to expire: in seconds.
		env.Setenv("STORECTL_MIRROR_LEASE_TTL", "3s")
		return nil
	}
	testscript.Run(t, p)
}

// mirrorCommand is a script line that runs a command on a profile's mirror:
// not the sandbox's (--sandbox), which always stays local.
var mirrorCommand = regexp.MustCompile(`storectl .*(mirror |--offline|bis (find|demand|report|export)|watch|preorder products --(variant|product)-id)`)

// TestMirrorScriptsRunOnPostgres keeps mirrorScripts whole: a new script
// whose commands touch a profile's mirror runs on both backends, unless it
// sets its own mirror_url (the team's scripts).
func TestMirrorScriptsRunOnPostgres(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "script", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ownMirror := strings.Contains(string(text), "\npgdb\n") || strings.Contains(string(text), "STORECTL_MIRROR_URL=")
		touches := slices.ContainsFunc(strings.Split(string(text), "\n"), func(l string) bool {
			assertion := regexp.MustCompile(`^(\[[^]]*\] )*!? *(stdout|stderr|grep|#)`).MatchString(l)
			return !assertion && mirrorCommand.MatchString(l) && !strings.Contains(l, "--sandbox")
		})
		listed := slices.Contains(mirrorScripts, name)
		switch {
		case touches && !ownMirror && !listed:
			t.Errorf("%s runs commands on a profile's mirror: add it to mirrorScripts (TestScriptsOnPostgres), and mark what cannot run on PostgreSQL with [pgmirror]", path)
		case listed && (ownMirror || !touches):
			t.Errorf("%s is in mirrorScripts but does not touch a profile's mirror of its own: take it out", path)
		}
	}
}
