// Package pgpace keeps a token's pacing window in the team's PostgreSQL
// mirror (table storectl.pace, a row per token), so that storectl on N
// machines together stays within the store's throttle: each request's
// slot is taken in a short transaction that locks the token's row. The
// window itself is httpx's (an httpx.PaceStore); this package only stores
// it.
//
// Rows are named by an HMAC of the token's SHA-256 under a random secret
// kept in storectl.pace_secret, readable only by the roles that pace: a
// reader of the mirror cannot test a guessed token against the names.
package pgpace

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/storectl/storectl/internal/httpx"
	"github.com/storectl/storectl/internal/mirror/postgres/pgurl"
)

// lockWait bounds one update: a server that does not answer (or a row
// locked for longer) makes pacing fall back to this machine.
const lockWait = 10 * time.Second

// Store is one token's window in the database.
type Store struct {
	target   *pgurl.Target
	tokenKey string

	mu   sync.Mutex
	conn *pgx.Conn
	row  string // the row's name, once the secret was read
}

// Opener returns the httpx.Config.SharedPace of a PostgreSQL mirror. It
// connects on the first request, not before.
func Opener(target *pgurl.Target) func(tokenKey string) (httpx.PaceStore, error) {
	return func(tokenKey string) (httpx.PaceStore, error) {
		return &Store{target: target, tokenKey: tokenKey}, nil
	}
}

// Update implements httpx.PaceStore: the row is locked while fn runs.
func (s *Store) Update(ctx context.Context, fn func(stored []byte) []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, lockWait)
	defer cancel()
	err := s.update(ctx, fn)
	if err != nil && s.conn != nil && s.conn.IsClosed() {
		s.conn = nil // reconnect next time
	}
	return s.target.RedactError(err)
}

func (s *Store) update(ctx context.Context, fn func([]byte) []byte) error {
	if err := s.connect(ctx); err != nil {
		return err
	}
	tx, err := s.conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	var stored []byte
	err = tx.QueryRow(ctx, "SELECT state::text FROM storectl.pace WHERE token_key = $1 FOR UPDATE", s.row).Scan(&stored)
	if errors.Is(err, pgx.ErrNoRows) {
		if _, err = tx.Exec(ctx, `INSERT INTO storectl.pace (token_key, state) VALUES ($1, '{}') ON CONFLICT (token_key) DO NOTHING`, s.row); err != nil {
			return err
		}
		// When another user created the row first, the INSERT waited for
		// its commit and this reads the window it committed: never assume
		// an empty one, or two machines starting at once both fill it.
		err = tx.QueryRow(ctx, "SELECT state::text FROM storectl.pace WHERE token_key = $1 FOR UPDATE", s.row).Scan(&stored)
	}
	if err != nil {
		return err
	}
	next := fn(stored)
	if next != nil {
		if _, err := tx.Exec(ctx, "UPDATE storectl.pace SET state = $2::jsonb, updated_at = now() WHERE token_key = $1", s.row, string(next)); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}

// connect opens the connection and names the token's row.
func (s *Store) connect(ctx context.Context) error {
	if s.conn != nil {
		return nil
	}
	conn, err := pgx.ConnectConfig(ctx, s.target.Config)
	if err != nil {
		return s.target.ConnectError(err)
	}
	var secret string
	if err := conn.QueryRow(ctx, "SELECT secret FROM storectl.pace_secret").Scan(&secret); err != nil {
		conn.Close(context.WithoutCancel(ctx))
		return &NoTableError{Target: s.target.Display, Err: err}
	}
	s.conn, s.row = conn, rowName(secret, s.tokenKey)
	return nil
}

// NoTableError is a PostgreSQL mirror whose schema holds no pacing table
// yet (its owner has not made the schema); the command says how to make it.
type NoTableError struct {
	Target string
	Err    error
}

func (e *NoTableError) Error() string {
	return fmt.Sprintf("the PostgreSQL mirror at %s has no pacing table yet: %v", e.Target, e.Err)
}

func (e *NoTableError) Unwrap() error { return e.Err }

// rowName is the token's row: HMAC-SHA256 of its key under the secret.
func rowName(secret, tokenKey string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(tokenKey))
	return hex.EncodeToString(mac.Sum(nil))
}

// Close ends the connection.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn == nil {
		return nil
	}
	err := s.conn.Close(context.Background())
	s.conn = nil
	return err
}
