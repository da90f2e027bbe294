package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
)

// pgCondition is [pg]: a PostgreSQL server for the team mirror's scripts
// can be had. In CI there must be one: its absence fails the script.
func pgCondition() (bool, error) {
	_, err := pgtest.ServerURL()
	if err != nil && os.Getenv("CI") != "" {
		return false, fmt.Errorf("PostgreSQL is required in CI and could not be started: %w", err)
	}
	return err == nil, nil
}

// cmdPGDB creates an empty database on the test's PostgreSQL server and
// sets STORECTL_MIRROR_URL to it, for the scripts of the team mirror
// (guard them with [!pg] skip).
//
//	pgdb
func cmdPGDB(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: pgdb")
	}
	server, err := pgtest.ServerURL()
	if err != nil {
		ts.Fatalf("no PostgreSQL server: %v", err)
	}
	name := "ts_" + pgtest.RandomName()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := pgtest.Exec(ctx, server, "CREATE DATABASE "+name); err != nil {
		ts.Fatalf("create a test database: %v", err)
	}
	ts.Defer(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = pgtest.Exec(ctx, server, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	ts.Setenv("STORECTL_MIRROR_URL", pgtest.WithDatabase(server, name))
}

// stopPGServer runs the tests, then stops the PostgreSQL server they
// started, if any.
type stopPGServer struct{ m testscript.TestingM }

func (s stopPGServer) Run() int {
	code := s.m.Run()
	pgtest.StopStarted()
	return code
}

// cmdPGReader creates a login role with the reader's grants of
// docs/team-mirror.md (read from the page) on the database of
// $STORECTL_MIRROR_URL (once its schema is made) and sets $READER_URL to
// connect as it: mirror query on PostgreSQL runs only as such a role.
//
//	pgreader
func cmdPGReader(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: pgreader")
	}
	db, err := url.Parse(ts.Getenv("STORECTL_MIRROR_URL"))
	ts.Check(err)
	_, grant, err := teamRoleBlocks()
	ts.Check(err)
	suffix := "_" + pgtest.RandomName()
	role := "storectl_reader" + suffix
	grants := teamRoleStatements(teamRoleSQL(grant, suffix, "", ""), "reader"+suffix)
	if len(grants) == 0 {
		ts.Fatalf("%s grants the reader nothing", teamMirrorPage)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ts.Check(pgtest.Exec(ctx, db.String(), append([]string{"CREATE ROLE " + role + " LOGIN PASSWORD 'reader-pw'"}, grants...)...))
	ts.Defer(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = pgtest.Exec(ctx, db.String(), "DROP OWNED BY "+role, "DROP ROLE IF EXISTS "+role)
	})
	db.User = url.UserPassword(role, "reader-pw")
	ts.Setenv("READER_URL", db.String())
}
