package credentials

import (
	"errors"
	"fmt"
	"time"

	"github.com/zalando/go-keyring"
)

// Service is the keyring service name of every storectl entry.
const Service = "storectl"

// ErrNotFound means the keyring has no such entry.
var ErrNotFound = keyring.ErrNotFound

// Keyring is the part of an OS keyring storectl uses.
type Keyring interface {
	Get(account string) (string, error)
	Set(account, secret string) error
	Delete(account string) error
}

// OSKeyring calls go-keyring with a timeout: Secret Service and Windows
// credential calls are known to hang on WSL and headless hosts, and a CLI
// must not.
type OSKeyring struct {
	Timeout time.Duration
}

// NewOSKeyring returns the system keyring with a per-call timeout.
func NewOSKeyring(timeout time.Duration) OSKeyring { return OSKeyring{Timeout: timeout} }

func (k OSKeyring) Get(account string) (string, error) {
	var secret string
	err := k.call(func() error {
		var err error
		secret, err = keyring.Get(Service, account)
		return err
	})
	return secret, err
}

func (k OSKeyring) Set(account, secret string) error {
	return k.call(func() error { return keyring.Set(Service, account, secret) })
}

func (k OSKeyring) Delete(account string) error {
	return k.call(func() error { return keyring.Delete(Service, account) })
}

// ErrKeyringTimeout means the keyring did not answer in time.
var ErrKeyringTimeout = errors.New("the OS keyring did not answer")

func (k OSKeyring) call(fn func() error) error {
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-time.After(k.Timeout):
		return fmt.Errorf("%w within %s", ErrKeyringTimeout, k.Timeout)
	}
}
