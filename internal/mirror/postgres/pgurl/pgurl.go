// Package pgurl reads where a PostgreSQL mirror is: a libpq-style URL
// (postgres://user@host:5432/db?sslmode=verify-full) or key=value string,
// completed by the PG* environment variables, ~/.pgpass and the service
// file exactly as libpq does (pgx parses them). It keeps the password out
// of everything it prints: Display names the server without it, and Redact
// scrubs it from any text (errors, traces).
//
// Clear text is allowed only to a loopback address or a Unix socket, as
// for the shop API: a remote server with no sslmode given is reached with
// sslmode=require, and sslmode=disable, allow or prefer to a remote server
// is refused (each may send the password and customers' data unencrypted).
package pgurl

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/storectl/storectl/internal/exitcode"
)

// Target is a parsed PostgreSQL address.
type Target struct {
	Config *pgx.ConnConfig
	// Display names the server for messages: user, host, port, database
	// and TLS mode, never the password.
	Display string
	redact  *strings.Replacer
	// namesConnectTimeout: the URL or PGCONNECT_TIMEOUT bounds opening a
	// connection (connect_timeout), which BoundConnect then leaves alone.
	namesConnectTimeout bool
}

// Is reports whether a mirror_url names PostgreSQL (a postgres:// or
// postgresql:// URL, or a libpq key=value string); "" is the SQLite mirror.
func Is(raw string) bool {
	raw = strings.TrimSpace(raw)
	lower := strings.ToLower(raw)
	return strings.HasPrefix(lower, "postgres://") || strings.HasPrefix(lower, "postgresql://") || keyValue().MatchString(raw)
}

var keyValue = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z_]+\s*=`) })

// Check validates a mirror_url setting without connecting, getenv
// reading PGSSLMODE (see ParseEnv).
func Check(raw string, getenv func(string) string) error {
	if strings.TrimSpace(raw) == "" {
		return nil
	}
	_, err := ParseEnv(raw, getenv)
	return err
}

// Parse reads raw with the PG* environment, applies the TLS rule, and
// returns the target. Its errors never hold the password.
func Parse(raw string) (*Target, error) { return ParseEnv(raw, nil) }

// ParseEnv is Parse where getenv, when not nil, says whether PGSSLMODE
// chose the TLS mode (pgx reads the PG* variables itself): a mode chosen
// for clear text to a remote server is refused rather than raised to
// require.
func ParseEnv(raw string, getenv func(string) string) (*Target, error) {
	raw = strings.TrimSpace(raw)
	if !Is(raw) {
		return nil, exitcode.UsageError("the mirror URL is not a PostgreSQL address: give postgres://user@host:5432/database (or key=value pairs such as host=db.example.com dbname=storectl), or leave it unset for the local SQLite mirror")
	}
	cfg, err := pgx.ParseConfig(raw)
	if err != nil {
		return nil, exitcode.Usagef("the mirror URL %s cannot be read: %s", RedactRaw(raw), RedactRaw(err.Error()))
	}
	if remote(cfg) && clearTextPossible(cfg) {
		if mode := givenSSLMode(raw, getenv); mode != "" {
			return nil, exitcode.Usagef("refusing sslmode %s for the PostgreSQL server at %s: the password and customers' data could cross the network unencrypted; use sslmode=require, verify-ca or verify-full (clear text is allowed only to a loopback address or a Unix socket)",
				mode, cfg.Host)
		}
		if cfg, err = pgx.ParseConfig(withSSLMode(raw, "require")); err != nil {
			return nil, exitcode.Usagef("the mirror URL %s cannot be read: %s", RedactRaw(raw), RedactRaw(err.Error()))
		}
	}
	t := &Target{Config: cfg, Display: display(cfg)}
	t.redact = passwordScrubber(cfg.Password, writtenPassword(raw))
	t.namesConnectTimeout = cfg.ConnectTimeout != 0 || connectTimeoutKey().MatchString(raw) ||
		getenv != nil && getenv("PGCONNECT_TIMEOUT") != ""
	return t, nil
}

var connectTimeoutKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)(^|[\s?&])connect_timeout\s*=`) })

// BoundConnect bounds the opening of each connection to the server (dial,
// TLS, login) by d, unless the URL or PGCONNECT_TIMEOUT named a bound of
// its own (connect_timeout, 0 for none): without one, a server that
// accepts and never answers holds every command that reads the mirror.
// d of 0 leaves connections unbounded.
func (t *Target) BoundConnect(d time.Duration) {
	if d > 0 && !t.namesConnectTimeout {
		t.Config.ConnectTimeout = d
	}
}

// ConnectError is err, a connection to t that could not be opened, naming
// the server and the bound its opening had.
func (t *Target) ConnectError(err error) *ConnectError {
	return &ConnectError{Target: t.Display, Err: err, Wait: t.Config.ConnectTimeout,
		Role: t.Config.User, NoPassword: t.Config.Password == ""}
}

// Redact scrubs the target's password from s.
func (t *Target) Redact(s string) string {
	if t == nil || t.redact == nil {
		return s
	}
	return t.redact.Replace(s)
}

// RedactError wraps err so that its text never holds the password.
func (t *Target) RedactError(err error) error {
	if err == nil || t == nil || t.redact == nil {
		return err
	}
	return &redacted{err: err, msg: t.Redact(err.Error())}
}

type redacted struct {
	err error
	msg string
}

func (r *redacted) Error() string { return r.msg }
func (r *redacted) Unwrap() error { return r.err }

// passwordScrubber replaces the password as parsed, percent-encoded, and
// as the URL wrote it.
func passwordScrubber(pw, written string) *strings.Replacer {
	if pw == "" {
		return nil
	}
	forms := map[string]bool{pw: true, url.QueryEscape(pw): true, url.PathEscape(pw): true,
		url.UserPassword("u", pw).String()[2:]: true}
	if written != "" {
		forms[written] = true
	}
	var pairs []string
	for f := range forms {
		pairs = append(pairs, f, "xxxxx")
	}
	return strings.NewReplacer(pairs...)
}

// writtenPassword is the password of a URL as written in it
// (percent-encoded as the user chose), "" when it has none.
func writtenPassword(raw string) string {
	if m := passwordURL().FindStringSubmatch(raw); m != nil {
		return m[2]
	}
	return ""
}

// RedactRaw hides the password of a URL or key=value string as written,
// even when the rest of it does not parse.
func RedactRaw(raw string) string {
	raw = passwordURL().ReplaceAllString(raw, "${1}xxxxx@")
	return passwordKV().ReplaceAllString(raw, "${1}xxxxx")
}

var (
	passwordURL = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)(postgres(?:ql)?://[^:/@?#]*:)([^@/?#]*)@`) })
	passwordKV  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)`) })
)

// display is the target as a password-free URL with its TLS mode.
func display(cfg *pgx.ConnConfig) string {
	host := cfg.Host
	if !strings.HasPrefix(host, "/") {
		host = fmt.Sprintf("%s:%d", host, cfg.Port)
	}
	u := url.URL{Scheme: "postgres", User: url.User(cfg.User), Host: host, Path: "/" + cfg.Database}
	if strings.HasPrefix(cfg.Host, "/") {
		u.Host = ""
		u.RawQuery = "host=" + url.QueryEscape(cfg.Host)
	}
	return fmt.Sprintf("%s (%s)", u.String(), tlsMode(cfg.TLSConfig, len(cfg.Fallbacks) > 0))
}

// tlsMode says how the connection is protected, as sslmode would.
func tlsMode(tc *tls.Config, fallback bool) string {
	switch {
	case tc == nil:
		return "no TLS"
	case fallback:
		return "TLS if the server offers it"
	case tc.InsecureSkipVerify && tc.VerifyPeerCertificate != nil:
		return "TLS, certificate authority verified"
	case tc.InsecureSkipVerify:
		return "TLS, server not verified"
	}
	return "TLS, server verified"
}

// remote reports a server beyond this machine: not a Unix socket, not a
// loopback address (any host of a multi-host URL counts).
func remote(cfg *pgx.ConnConfig) bool {
	hosts := []string{cfg.Host}
	for _, fb := range cfg.Fallbacks {
		hosts = append(hosts, fb.Host)
	}
	for _, h := range hosts {
		if !strings.HasPrefix(h, "/") && !isLoopback(h) {
			return true
		}
	}
	return false
}

func isLoopback(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" {
		return true
	}
	addr, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && addr.Unmap().IsLoopback()
}

// clearTextPossible reports a connection that may run without TLS: no
// TLS, or a fallback without it (sslmode allow and prefer).
func clearTextPossible(cfg *pgx.ConnConfig) bool {
	if cfg.TLSConfig == nil {
		return true
	}
	for _, fb := range cfg.Fallbacks {
		if fb.TLSConfig == nil {
			return true
		}
	}
	return false
}

var sslModeKV = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|\s)sslmode\s*=\s*'?([a-z-]*)`) })

// givenSSLMode is the sslmode raw or PGSSLMODE sets, "" when neither.
func givenSSLMode(raw string, getenv func(string) string) string {
	if u, err := url.Parse(raw); err == nil && u.Scheme != "" {
		if m := u.Query().Get("sslmode"); m != "" {
			return m
		}
		if u.Query().Get("ssl") == "true" {
			return "require"
		}
	} else if m := sslModeKV().FindStringSubmatch(raw); m != nil {
		return m[1]
	}
	if getenv == nil {
		return ""
	}
	return getenv("PGSSLMODE")
}

// withSSLMode adds sslmode to raw.
func withSSLMode(raw, mode string) string {
	if u, err := url.Parse(raw); err == nil && u.Scheme != "" {
		q := u.Query()
		q.Set("sslmode", mode)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return raw + " sslmode=" + mode
}

// ConnectError is a PostgreSQL mirror that cannot be reached (down,
// refused, wrong password): the server as Display names it and why.
type ConnectError struct {
	Target string
	Err    error
	// Wait bounded the connection's opening (0: none).
	Wait time.Duration
	// Role is the login's role; NoPassword, that neither the URL, nor
	// PGPASSWORD, nor ~/.pgpass gave it a password.
	Role       string
	NoPassword bool
}

func (e *ConnectError) Error() string {
	// A pool's connect already says it: once is enough.
	var inner *ConnectError
	if errors.As(e.Err, &inner) {
		return inner.Error()
	}
	if e.TimedOut() {
		return fmt.Sprintf("cannot reach the PostgreSQL mirror at %s: no answer within %s", e.Target, e.Wait)
	}
	// The server's own refusal is the cause, whatever pgx tried before
	// it (a TLS attempt sslmode=prefer falls back from reads as a TLS
	// failure).
	var pe *pgconn.PgError
	if errors.As(e.Err, &pe) {
		return fmt.Sprintf("cannot reach the PostgreSQL mirror at %s: the server refused: %s (SQLSTATE %s)", e.Target, pe.Message, pe.Code)
	}
	return fmt.Sprintf("cannot reach the PostgreSQL mirror at %s: %v", e.Target, e.Err)
}

// LoginRefused reports whether the server refused the role's login (a
// wrong or missing password, no entry for it in pg_hba.conf).
func (e *ConnectError) LoginRefused() bool {
	var pe *pgconn.PgError
	return errors.As(e.Err, &pe) && (pe.Code == "28P01" || pe.Code == "28000")
}

// TimedOut reports whether the server did not answer within the bound of
// the connection's opening (a server that accepts and never answers, a
// network that drops the packets).
func (e *ConnectError) TimedOut() bool {
	var inner *ConnectError
	if errors.As(e.Err, &inner) {
		return inner.TimedOut()
	}
	return e.Wait > 0 && errors.Is(e.Err, context.DeadlineExceeded)
}

func (e *ConnectError) Unwrap() error { return e.Err }

// ExitCode: a server that cannot be reached is not the command's fault;
// a refused login is an authentication problem.
func (e *ConnectError) ExitCode() int {
	// pgx wraps the server's refusal in its own connect error.
	if e.LoginRefused() {
		return exitcode.Auth
	}
	return exitcode.Failure
}
