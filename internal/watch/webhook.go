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

// NewWebhook checks the receiver's URL (https, or plain http to loopback
// only) and the secret that signs each request.
func NewWebhook(raw, secret, userAgent string, timeout time.Duration) (*Webhook, error) {
	u, err := receiverURL(raw)
	if err != nil {
		return nil, err
	}
	if secret == "" {
		return nil, exitcode.UsageHint(fmt.Errorf("--forward-to needs a secret to sign the events with"),
			"set STORECTL_WEBHOOK_SECRET (or give --secret S); the receiver checks each request's Storectl-Signature with it (docs/watch.md)")
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.Proxy = loopback.Proxy
	return &Webhook{url: u, secret: secret, userAgent: userAgent, timeout: timeout, now: time.Now,
		client: &http.Client{Transport: transport,
			// A followed redirect could take the event elsewhere.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
	}, nil
}

// receiverURL accepts https URLs, and plain http only for loopback hosts,
// as everywhere in storectl: events hold customers' e-mails.
func receiverURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || u.Opaque != "" {
		return nil, exitcode.Usagef("--forward-to %q is not a URL: give a full address such as https://hooks.example.com/storectl", raw)
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		if !loopback.Host(u.Hostname()) {
			return nil, exitcode.Usagef("refusing plain http for %s: use https:// (plain http is allowed only for loopback hosts such as 127.0.0.1 or localhost)", u.Host)
		}
	default:
		return nil, exitcode.Usagef("--forward-to %q: the scheme must be https:// (or http:// to a loopback host)", raw)
	}
	return u, nil
}

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
		return &StopError{Code: exitcode.APIRefused,
			Err: fmt.Errorf("%s answered 410 Gone: it takes no more events, so forwarding stopped (the events stay pending; `storectl watch` sends them once a receiver takes them)", w)}
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		return fmt.Errorf("HTTP %s (a redirect, not followed: give the final URL to --forward-to)", resp.Status)
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
