package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
)

// teamMirrorPage is the guide whose roles the team mirror's scripts set
// up with the guide's own SQL, so that the guide and the tests cannot
// drift apart.
const teamMirrorPage = "../../docs/team-mirror.md"

// teamRoleBlocks are the SQL blocks of docs/team-mirror.md that make the
// team's roles: the superuser's (the three login roles and the owner's
// right to create the schema) and the owner's first (the writer's and
// the readers' grants, once the schema is made). The page's later owner
// block, row-level security for some stores, is not part of the set-up.
func teamRoleBlocks() (create, grant string, err error) {
	text, err := os.ReadFile(teamMirrorPage)
	if err != nil {
		return "", "", err
	}
	blocks, err := parseDocBlocks(string(text))
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", teamMirrorPage, err)
	}
	for _, b := range blocks {
		switch {
		case b.psql == "postgres" && create == "":
			create = b.body
		case b.psql == "storectl_owner" && grant == "":
			grant = b.body
		}
	}
	if create == "" || grant == "" {
		return "", "", fmt.Errorf("%s: no psql postgres block or no psql storectl_owner block", teamMirrorPage)
	}
	return create, grant, nil
}

// teamRoleSQL is the page's SQL on a test's server: its roles with a
// suffix of their own (roles are the whole server's, shared by the tests
// that run at once), its '…' passwords the test's, and its database
// storectl the test's.
func teamRoleSQL(text, suffix, password, database string) string {
	text = regexp.MustCompile(`\bstorectl_(owner|writer|reader)\b`).ReplaceAllString(text, "storectl_${1}"+suffix)
	text = strings.ReplaceAll(text, "PASSWORD '…'", "PASSWORD '"+password+"'")
	return regexp.MustCompile(`\bDATABASE storectl\b`).ReplaceAllString(text, "DATABASE "+database)
}

// teamRoleStatements are the statements of the page's owner block that
// grant role ("reader", "writer") its rights.
func teamRoleStatements(grant, role string) []string {
	var out []string
	for _, s := range strings.Split(grant, ";") {
		var kept []string
		for _, l := range strings.Split(s, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "--") {
				kept = append(kept, l)
			}
		}
		if stmt := strings.Join(kept, " "); regexp.MustCompile(`\bTO storectl_` + role + `\b`).MatchString(stmt) {
			out = append(out, stmt)
		}
	}
	return out
}

// teamRolesPassword is the password of the roles the scripts make.
const teamRolesPassword = "roles-pw"

// cmdPGRoles sets up the owner, writer and reader roles of
// docs/team-mirror.md on the database of $STORECTL_MIRROR_URL, running
// the page's own SQL blocks:
//
//	pgroles create   the superuser's block; sets $OWNER_URL, $WRITER_URL
//	                 and $READER_URL to connect as each role
//	pgroles grant    the owner's grants, run as the owner once the
//	                 script made the schema (storectl mirror migrate)
func cmdPGRoles(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 || (args[0] != "create" && args[0] != "grant") {
		ts.Fatalf("usage: pgroles create|grant")
	}
	create, grant, err := teamRoleBlocks()
	ts.Check(err)
	db, err := url.Parse(ts.Getenv("STORECTL_MIRROR_URL"))
	ts.Check(err)
	database := strings.TrimPrefix(db.Path, "/")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if args[0] == "grant" {
		suffix := ts.Getenv("PGROLES_SUFFIX")
		if suffix == "" {
			ts.Fatalf("pgroles grant comes after pgroles create")
		}
		ts.Check(pgtest.Exec(ctx, ts.Getenv("OWNER_URL"), teamRoleSQL(grant, suffix, teamRolesPassword, database)))
		return
	}
	suffix := "_" + pgtest.RandomName()
	ts.Check(pgtest.Exec(ctx, db.String(), teamRoleSQL(create, suffix, teamRolesPassword, database)))
	ts.Defer(func() {
		// The owner owns the schema: the database goes first.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		stmts := []string{"DROP DATABASE IF EXISTS " + database + " WITH (FORCE)"}
		for _, r := range []string{"owner", "writer", "reader"} {
			stmts = append(stmts, "DROP ROLE IF EXISTS storectl_"+r+suffix)
		}
		server := *db
		server.Path = "/postgres"
		_ = pgtest.Exec(ctx, server.String(), stmts...)
	})
	ts.Setenv("PGROLES_SUFFIX", suffix)
	for _, r := range []string{"owner", "writer", "reader"} {
		u := *db
		u.User = url.UserPassword("storectl_"+r+suffix, teamRolesPassword)
		ts.Setenv(strings.ToUpper(r)+"_URL", u.String())
	}
}
