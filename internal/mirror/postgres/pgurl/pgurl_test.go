package pgurl

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func clearPGEnv(t *testing.T) {
	for _, k := range []string{"PGHOST", "PGPORT", "PGDATABASE", "PGUSER", "PGPASSWORD", "PGSSLMODE", "PGSERVICE", "PGPASSFILE", "PGCONNECT_TIMEOUT"} {
		t.Setenv(k, "")
	}
	t.Setenv("PGPASSFILE", t.TempDir()+"/none")
}

func TestIs(t *testing.T) {
	for raw, want := range map[string]bool{
		"postgres://h/db": true, "POSTGRESQL://h/db": true, "host=h dbname=d": true, "postgres://": true,
		"": false, "/home/me/mirror.db": false, "https://x": false, "sqlite": false,
	} {
		if got := Is(raw); got != want {
			t.Errorf("Is(%q) = %v, want %v", raw, got, want)
		}
	}
}

// The TLS rule: clear text only to loopback or a socket; a remote server
// without sslmode gets require; disable/allow/prefer to it are refused.
func TestTLSRule(t *testing.T) {
	clearPGEnv(t)
	cases := []struct {
		raw     string
		refused bool
		mode    string
	}{
		{"postgres://u@127.0.0.1/db?sslmode=disable", false, "no TLS"},
		{"postgres://u@localhost/db", false, "TLS if the server offers it"},
		{"host=/var/run/postgresql dbname=db sslmode=disable", false, "no TLS"},
		{"postgres://u@db.example.com/db", false, "TLS, server not verified"},
		{"host=db.example.com dbname=db", false, "TLS, server not verified"},
		{"postgres://u@db.example.com/db?sslmode=verify-full", false, "TLS, server verified"},
		{"postgres://u@db.example.com/db?sslmode=disable", true, ""},
		{"postgres://u@db.example.com/db?sslmode=prefer", true, ""},
		{"host=db.example.com sslmode=allow", true, ""},
		{"postgres://u@127.0.0.1,db.example.com/db?sslmode=disable", true, ""},
	}
	for _, c := range cases {
		tg, err := Parse(c.raw)
		if c.refused {
			if err == nil || exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), "refusing sslmode") {
				t.Errorf("%s: want a refusal, got %v", c.raw, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.raw, err)
			continue
		}
		if !strings.Contains(tg.Display, "("+c.mode+")") {
			t.Errorf("%s: Display %q, want mode %q", c.raw, tg.Display, c.mode)
		}
	}
	t.Setenv("PGSSLMODE", "disable")
	if _, err := ParseEnv("postgres://u@db.example.com/db", os.Getenv); err == nil {
		t.Error("PGSSLMODE=disable to a remote server was not refused")
	}
}

// PG* variables fill what the URL leaves out.
func TestEnvironmentCompletes(t *testing.T) {
	clearPGEnv(t)
	t.Setenv("PGHOST", "127.0.0.1")
	t.Setenv("PGPORT", "6543")
	t.Setenv("PGUSER", "writer")
	t.Setenv("PGDATABASE", "team")
	t.Setenv("PGPASSWORD", "s3cret-Pw")
	tg, err := Parse("postgres://")
	if err != nil {
		t.Fatal(err)
	}
	c := tg.Config
	if c.Host != "127.0.0.1" || c.Port != 6543 || c.User != "writer" || c.Database != "team" || c.Password != "s3cret-Pw" {
		t.Fatalf("config from the environment: %+v", c.Config)
	}
	if strings.Contains(tg.Display, "s3cret") || !strings.Contains(tg.Display, "writer@127.0.0.1:6543/team") {
		t.Fatalf("Display = %q", tg.Display)
	}
}

// The password never shows: not in Display, not in a parse error, not in
// an error that quotes it, in any of the forms a URL may carry it.
func TestPasswordNeverShown(t *testing.T) {
	clearPGEnv(t)
	const pw = "p@ss/w:rd%21x"
	raw := "postgres://u:" + strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(pw, "%", "%25"), "@", "%40"), "/", "%2F") + "@127.0.0.1:1/db"
	tg, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if tg.Config.Password != pw {
		t.Fatalf("password parsed as %q", tg.Config.Password)
	}
	leaks := func(s string) bool {
		return strings.Contains(s, "p@ss") || strings.Contains(s, "p%40ss") || strings.Contains(s, "w:rd")
	}
	if leaks(tg.Display) {
		t.Errorf("Display leaks: %s", tg.Display)
	}
	err = tg.RedactError(fmt.Errorf("server said: bad login for %s using %s", pw, raw))
	if leaks(err.Error()) {
		t.Errorf("RedactError leaks: %s", err)
	}
	if !errors.Is(err, errors.Unwrap(err)) {
		t.Error("RedactError must keep the cause")
	}
	_, err = Parse("postgres://u:" + "hunter2secret" + "@127.0.0.1:notaport/db")
	if err == nil || strings.Contains(err.Error(), "hunter2secret") {
		t.Errorf("a parse error leaks or passes: %v", err)
	}
	_, err = Parse("host=127.0.0.1 password='hunter2 secret' port=notaport")
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("a key=value parse error leaks or passes: %v", err)
	}
}

// A connect error says where once, however many layers report it, and a
// refused login is exit 4 through pgx's own wrapping.
func TestConnectErrorSaysWhereOnce(t *testing.T) {
	refused := &pgconn.PgError{Code: "28P01", Message: "password authentication failed"}
	inner := &ConnectError{Target: "postgres://u@h/db", Err: fmt.Errorf("failed to connect: %w", refused)}
	outer := &ConnectError{Target: "postgres://u@h/db", Err: inner}
	if got := outer.Error(); strings.Count(got, "cannot reach") != 1 || !strings.Contains(got, "password authentication failed") {
		t.Errorf("nested: %s", got)
	}
	if outer.ExitCode() != exitcode.Auth || inner.ExitCode() != exitcode.Auth {
		t.Errorf("a refused login: exit %d and %d, want %d", outer.ExitCode(), inner.ExitCode(), exitcode.Auth)
	}
	down := &ConnectError{Target: "postgres://u@h/db", Err: errors.New("connection refused")}
	if down.ExitCode() != exitcode.Failure {
		t.Errorf("a server down: exit %d", down.ExitCode())
	}
}

// silentServer accepts connections and never answers (a wrong port, a
// server stopped while its socket stays open); it closes them after a
// while, so that a connection without a bound fails the test rather than
// hanging it.
func silentServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			time.AfterFunc(20*time.Second, func() { c.Close() })
		}
	}()
	return ln.Addr().String()
}

// --timeout bounds opening a connection unless the URL or
// PGCONNECT_TIMEOUT names connect_timeout (0 included: no bound).
func TestBoundConnect(t *testing.T) {
	clearPGEnv(t)
	for raw, want := range map[string]time.Duration{
		"postgres://u@127.0.0.1/db":                                   2 * time.Second,
		"postgres://u@127.0.0.1/db?connect_timeout=7":                 7 * time.Second,
		"host=127.0.0.1 dbname=db connect_timeout=0":                  0,
		"postgres://u@127.0.0.1/db?sslmode=disable&connect_timeout=0": 0,
	} {
		tg, err := Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		tg.BoundConnect(2 * time.Second)
		if tg.Config.ConnectTimeout != want {
			t.Errorf("%s: connect timeout %s, want %s", raw, tg.Config.ConnectTimeout, want)
		}
	}
	env := map[string]string{"PGCONNECT_TIMEOUT": "9"}
	t.Setenv("PGCONNECT_TIMEOUT", "9")
	tg, err := ParseEnv("postgres://u@127.0.0.1/db", func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if tg.BoundConnect(2 * time.Second); tg.Config.ConnectTimeout != 9*time.Second {
		t.Errorf("PGCONNECT_TIMEOUT: connect timeout %s", tg.Config.ConnectTimeout)
	}
}

// A server that accepts and never answers is given up on at the bound,
// and the error says so, naming the server once.
func TestConnectToASilentServerTimesOut(t *testing.T) {
	clearPGEnv(t)
	tg, err := Parse("postgres://u@" + silentServer(t) + "/db?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	tg.BoundConnect(200 * time.Millisecond)
	_, err = pgx.ConnectConfig(context.Background(), tg.Config)
	ce := tg.ConnectError(err)
	if !ce.TimedOut() || !strings.Contains(ce.Error(), "at "+tg.Display+": no answer within 200ms") {
		t.Errorf("%v (timed out: %v)", ce, ce.TimedOut())
	}
	if ce.ExitCode() != exitcode.Failure {
		t.Errorf("exit %d", ce.ExitCode())
	}
}

// A login the server refuses is named by the server's words, not by what
// pgx tried before (sslmode=prefer's TLS attempt read as a TLS failure),
// exit 4, and says whether a password was given at all.
func TestRefusedLoginNamesTheServersCause(t *testing.T) {
	dbURL := pgtest.DB(t) // before clearPGEnv: the test server reads PGPORT
	clearPGEnv(t)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.User(u.User.Username())
	q := u.Query()
	q.Set("sslmode", "prefer")
	u.RawQuery = q.Encode()
	tg, err := Parse(u.String())
	if err != nil {
		t.Fatal(err)
	}
	_, err = pgx.ConnectConfig(context.Background(), tg.Config)
	ce := tg.ConnectError(err)
	msg := ce.Error()
	if !strings.Contains(msg, "the server refused: password authentication failed for user") || strings.Contains(msg, "tls") ||
		strings.Count(msg, "cannot reach") != 1 {
		t.Errorf("message: %s", msg)
	}
	if !ce.LoginRefused() || !ce.NoPassword || ce.Role != u.User.Username() || ce.ExitCode() != exitcode.Auth {
		t.Errorf("refused %v, no password %v, role %q, exit %d", ce.LoginRefused(), ce.NoPassword, ce.Role, ce.ExitCode())
	}
}
