// Package credentials keeps API tokens: in the OS keyring by default, in a
// 0600 file when the user opts in, overridden by environment variables. No
// token ever goes into config.yaml or a log.
package credentials

import (
	"errors"
	"fmt"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
)

// Kind is which API a token is for.
type Kind string

const (
	Shop    Kind = "shop"
	Catalog Kind = "catalog"
)

// Kinds are every kind of token, in the order commands show them.
var Kinds = []Kind{Shop, Catalog}

// Env is the variable that overrides the stored token of this kind.
func (k Kind) Env() string {
	if k == Catalog {
		return "STORECTL_CATALOG_TOKEN"
	}
	return "STORECTL_SHOP_TOKEN"
}

// Flag is the auth login flag that reads this kind from stdin.
func (k Kind) Flag() string { return "--" + string(k) + "-token-stdin" }

// Source says where a token was found.
type Source string

const (
	FromEnv     Source = "env"
	FromKeyring Source = "keyring"
	FromFile    Source = "file"
)

// Token is a token and where it came from.
type Token struct {
	Value  string
	Source Source
}

// ErrNoToken means no token of that kind is configured for the profile.
var ErrNoToken = errors.New("no token configured")

// Store looks tokens up and saves them.
type Store struct {
	keyring Keyring
	file    *File
	getenv  func(string) string
}

// New returns a store using the OS keyring with the given call timeout,
// the opt-in file at filePath, and the token variables getenv reads
// (config.Getenv).
func New(filePath string, keyringTimeout time.Duration, getenv func(string) string) *Store {
	return NewWith(NewOSKeyring(keyringTimeout), filePath, getenv)
}

// NewWith builds a store from parts (tests, or a keyring stand-in).
func NewWith(k Keyring, filePath string, getenv func(string) string) *Store {
	return &Store{keyring: k, file: &File{Path: filePath}, getenv: getenv}
}

// FromEnv reports a token of kind set in the environment, which stands in
// for the current profile's stored one.
func (s *Store) FromEnv(kind Kind) bool { return s.getenv(kind.Env()) != "" }

// FilePath is where --insecure-storage keeps tokens.
func (s *Store) FilePath() string { return s.file.Path }

// Get finds the token: environment first (for CI), then the opt-in file
// (checked before the keyring so that users who chose it never wait for a
// keyring that hangs), then the keyring.
func (s *Store) Get(profile string, kind Kind) (Token, error) {
	if v := s.getenv(kind.Env()); v != "" {
		return Token{Value: v, Source: FromEnv}, nil
	}
	return s.Stored(profile, kind)
}

// Stored finds the token kept for the profile, in the file or the keyring,
// ignoring the environment: the token of a profile other than the one a
// variable was set for (auth status checks every profile).
func (s *Store) Stored(profile string, kind Kind) (Token, error) {
	if v, err := s.file.Get(profile, kind); err != nil {
		return Token{}, err
	} else if v != "" {
		return Token{Value: v, Source: FromFile}, nil
	}
	v, err := s.keyring.Get(account(profile, kind))
	switch {
	case err == nil:
		return Token{Value: v, Source: FromKeyring}, nil
	case errors.Is(err, ErrNotFound):
		return Token{}, ErrNoToken
	default:
		// An unreachable keyring (headless Linux, containers) holds no token
		// we could use: report "no token", saying why.
		return Token{}, &KeyringUnavailableError{Err: err}
	}
}

// KeyringUnavailableError is a lookup that could not ask the keyring. It
// counts as ErrNoToken.
type KeyringUnavailableError struct{ Err error }

func (e *KeyringUnavailableError) Error() string {
	return "no token found (the OS keyring is unavailable: " + e.Err.Error() + ")"
}
func (e *KeyringUnavailableError) Is(target error) bool { return target == ErrNoToken }
func (e *KeyringUnavailableError) Unwrap() error        { return e.Err }

// Require is Get with the user-facing error of a missing token (exit 4).
func (s *Store) Require(profile string, kind Kind) (Token, error) {
	tok, err := s.Get(profile, kind)
	if errors.Is(err, ErrNoToken) {
		msg := fmt.Sprintf("no %s API token for profile %q", kind, profile)
		var ke *KeyringUnavailableError
		if errors.As(err, &ke) {
			msg += " (the OS keyring is unavailable: " + ke.Err.Error() + ")"
		}
		return Token{}, exitcode.WithHint(exitcode.Auth, errors.New(msg),
			fmt.Sprintf("run `storectl auth login %s --profile %s`, set %s, or try `--sandbox`", kind.Flag(), profile, kind.Env()))
	}
	if err != nil {
		return Token{}, exitcode.WithHint(exitcode.Auth, fmt.Errorf("cannot read the %s API token: %w", kind, err),
			fmt.Sprintf("set %s, or log in again with `storectl auth login --insecure-storage`", kind.Env()))
	}
	return tok, nil
}

// Set saves a token in the keyring, or in the file when insecure is true.
// Saving to one place removes the other copy so the two never disagree.
func (s *Store) Set(profile string, kind Kind, token string, insecure bool) (Source, error) {
	if insecure {
		if err := s.file.Set(profile, kind, token); err != nil {
			return "", err
		}
		_ = s.keyring.Delete(account(profile, kind))
		return FromFile, nil
	}
	if err := s.keyring.Set(account(profile, kind), token); err != nil {
		// Storage, not the token, failed: exit 1, not the auth code.
		return "", exitcode.WithHint(exitcode.Failure, fmt.Errorf("cannot save the token in the OS keyring: %w", err), s.noKeyringHint(profile, kind))
	}
	if err := s.file.Delete(profile, kind); err != nil {
		return "", err
	}
	return FromKeyring, nil
}

// KeyringAvailable asks the keyring for an entry that does not exist: a
// working keyring says "not found", one that is missing or locked fails.
// Login asks first, before anyone types a token it could not keep.
func (s *Store) KeyringAvailable() error {
	_, err := s.keyring.Get(account("storectl-probe", Shop))
	if err == nil || errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// NoKeyringError is the error of a login that cannot keep its tokens,
// found before anything was sent: the user must choose the file (exit 2,
// as for a usage error), and the hint says how, for this profile or all.
func (s *Store) NoKeyringError(profile string, err error) error {
	return exitcode.UsageHint(fmt.Errorf("the OS keyring is unavailable (%w): nothing was sent or saved", err), s.noKeyringHint(profile, Shop))
}

// noKeyringHint offers the token file: credential_store is a setting of
// each profile, so the hint names the profile, and offers the environment
// variable that sets it for every profile at once.
func (s *Store) noKeyringHint(profile string, kind Kind) string {
	return fmt.Sprintf("no keyring is reachable here (common on headless Linux, containers and WSL). To keep tokens in %s (mode 0600) instead: "+
		"re-run with --insecure-storage; or run `storectl --profile %s config set credential_store file` (that profile only: each profile has its own setting); "+
		"or, for every profile, export STORECTL_CREDENTIAL_STORE=file (in your shell's profile). Or set %s", s.file.Path, profile, kind.Env())
}

// Delete removes the stored token from both places. It reports whether a
// token was there.
func (s *Store) Delete(profile string, kind Kind) (bool, error) {
	inFile, _ := s.file.Get(profile, kind)
	if err := s.file.Delete(profile, kind); err != nil {
		return false, err
	}
	err := s.keyring.Delete(account(profile, kind))
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, ErrNotFound):
		return inFile != "", nil
	case inFile != "":
		// The file copy is gone; an unreachable keyring cannot hold one we know of.
		return true, nil
	default:
		return false, &KeyringUnavailableError{Err: err}
	}
}

func account(profile string, kind Kind) string { return profile + ":" + string(kind) }

// Mask shows enough of a token to recognise it and never enough to use it.
func Mask(token string) string {
	if len(token) < 12 {
		return "****"
	}
	return token[:4] + "…" + token[len(token)-4:]
}
