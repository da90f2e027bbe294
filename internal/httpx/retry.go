package httpx

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"time"
)

const (
	// A 429 means nothing was done, so every method may retry it, but a
	// server that keeps refusing is not worth waiting on for ever.
	max429Retries = 10
	// maxRetryAfter is the longest server-requested wait sat out; a longer
	// one fails at once with the wait in the message.
	maxRetryAfter = 10 * time.Minute
	// minThrottleWait keeps "Retry-After: 0" (a window about to roll over)
	// from turning into a burst of immediate retries.
	minThrottleWait = time.Second
	throttleBase    = time.Second
	throttleCap     = time.Minute
	retryBase       = 500 * time.Millisecond
	retryCap        = 10 * time.Second
)

// throttleBackoff is the wait after the nth 429 that named no Retry-After.
func throttleBackoff(n int) time.Duration {
	return capped(throttleBase, throttleCap, n-1)
}

// retryBackoff is "full jitter" after the nth failed try: a random wait up
// to an exponentially growing cap, so that many clients do not retry in step.
func retryBackoff(n int, jitter func(time.Duration) time.Duration) time.Duration {
	return jitter(capped(retryBase, retryCap, n-1))
}

func fullJitter(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return time.Duration(rand.Int64N(int64(d) + 1))
}

func capped(base, ceiling time.Duration, doublings int) time.Duration {
	d := base
	for range max(doublings, 0) {
		if d >= ceiling/2 {
			return ceiling
		}
		d *= 2
	}
	return min(d, ceiling)
}

func retryableStatus(code int) bool {
	return code == http.StatusBadGateway || code == http.StatusServiceUnavailable || code == http.StatusGatewayTimeout
}

// notSent reports a failure before the request could reach the server
// (DNS, connection refused): safe to retry even for a non-idempotent request.
func notSent(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// timedOut reports a request that got no answer within its timeout.
func timedOut(err error) bool {
	var netErr net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout())
}

// describeNetworkError says what went wrong in terms a user can act on.
func describeNetworkError(err error, timeout time.Duration) string {
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err
	}
	var (
		dnsErr  *net.DNSError
		opErr   *net.OpError
		certErr *tls.CertificateVerificationError
		authErr x509.UnknownAuthorityError
		hostErr x509.HostnameError
	)
	switch {
	case timedOut(err):
		return fmt.Sprintf("no response within %s; check your network, or raise the per-request timeout", timeout)
	case errors.As(err, &dnsErr):
		return fmt.Sprintf("could not resolve host %q (%v); check the base URL and your network", dnsErr.Name, dnsErr.Err)
	case errors.As(err, &opErr) && opErr.Op == "proxyconnect":
		return fmt.Sprintf("could not reach the proxy (%v); check HTTPS_PROXY and NO_PROXY", opErr.Err)
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return fmt.Sprintf("could not connect (%v); check the base URL and that the server is running", opErr.Err)
	case errors.As(err, &certErr) || errors.As(err, &authErr) || errors.As(err, &hostErr):
		return fmt.Sprintf("the server's TLS certificate could not be verified (%v); check the base URL and the system's trusted certificates", err)
	default:
		return fmt.Sprintf("network error (%v); check your network and try again", err)
	}
}
