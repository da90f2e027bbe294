package watch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/loopback"
)

// Webhook POSTs each event, signed, to a receiver (--forward-to).
type Webhook struct {
	url       *url.URL
	secret    string
	userAgent string
	timeout   time.Duration
	client    *http.Client
	now       func() time.Time
}

// NewWebhook POSTs to the receiver at u, each request signed with secret.
// Plain http goes to loopback hosts only (ReceiverError): events hold
// customers' e-mails.
func NewWebhook(u *url.URL, secret, userAgent string, timeout time.Duration) (*Webhook, error) {
	if err := CheckReceiver(u); err != nil {
		return nil, err
	}
	if secret == "" {
		return nil, ErrNoSecret
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.Proxy = loopback.Proxy
	return &Webhook{url: u, secret: secret, userAgent: userAgent, timeout: timeout, now: time.Now,
		client: &http.Client{Transport: transport,
			// A followed redirect could take the event elsewhere.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
	}, nil
}

// CheckReceiver accepts https URLs, and plain http only for loopback
// hosts, as everywhere in storectl.
func CheckReceiver(u *url.URL) error {
	if strings.EqualFold(u.Scheme, "https") || (strings.EqualFold(u.Scheme, "http") && loopback.Host(u.Hostname())) {
		return nil
	}
	return &ReceiverError{URL: shownURL(u)}
}

// ErrNoSecret is a webhook without a secret to sign the events with.
var ErrNoSecret = exitcode.New(exitcode.Usage, "a webhook needs a secret to sign the events with")

// ReceiverError is a receiver's URL that is neither https nor plain http
// to a loopback host.
type ReceiverError struct{ URL string }

func (e *ReceiverError) Error() string {
	u, _ := url.Parse(e.URL)
	if u != nil && strings.EqualFold(u.Scheme, "http") {
		return fmt.Sprintf("refusing plain http for %s: use https:// (plain http is allowed only for loopback hosts such as 127.0.0.1 or localhost)", u.Host)
	}
	return fmt.Sprintf("%s: the scheme must be https:// (or http:// to a loopback host)", e.URL)
}

// ExitCode: nothing was sent; the URL is to fix.
func (e *ReceiverError) ExitCode() int { return exitcode.Usage }

// Deliver POSTs the event. A 2xx answer is success; 410 Gone stops the
// watch; anything else is retried.
func (w *Webhook) Deliver(ctx context.Context, d Delivery) error {
	ctx, cancel := context.WithTimeout(ctx, w.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url.String(), bytes.NewReader(d.Body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", w.userAgent)
	req.Header.Set("Storectl-Event-Id", d.ID)
	req.Header.Set("Storectl-Event-Type", d.Type)
	req.Header.Set(SignatureHeader, Sign(w.secret, w.now(), d.Body))
	resp, err := w.client.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return fmt.Errorf("no answer within %s", w.timeout)
		}
		// The delivery's error names the receiver already: not its URL
		// again, as net/http's does ("Post \"https://…\": …").
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		// A network failure is its cause ("connection refused"): the
		// address is the receiver's.
		var op *net.OpError
		if errors.As(err, &op) {
			for err = op.Err; errors.Unwrap(err) != nil; {
				err = errors.Unwrap(err)
			}
		}
		return w.redact(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return nil
	case resp.StatusCode == http.StatusGone:
		return &StopError{Code: exitcode.APIRefused, Gone: true,
			Err: fmt.Errorf("%s answered 410 Gone: it takes no more events, so forwarding stopped (the events stay pending)", w)}
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		return fmt.Errorf("HTTP %s (a redirect, not followed: the receiver's final URL is needed)", resp.Status)
	}
	return fmt.Errorf("HTTP %s", resp.Status)
}

// String names the receiver without its credentials or query.
func (w *Webhook) String() string { return "POST " + shownURL(w.url) }

func shownURL(u *url.URL) string {
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
}

// redact keeps the URL's credentials and query out of an error.
func (w *Webhook) redact(err error) error {
	msg := strings.ReplaceAll(err.Error(), w.url.String(), shownURL(w.url))
	return fmt.Errorf("%s", msg)
}
