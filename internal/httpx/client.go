// Package httpx is the transport every storectl API client uses: bearer
// auth, pacing to the server's throttle (shared by every process using the
// token), 429 and retry handling, per-attempt timeouts, a redacted debug
// trace, and decoding of failure answers into typed errors that carry an
// exit code. It knows no endpoints.
package httpx

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Client sends requests to one API base URL with one token.
type Client struct {
	base        *url.URL
	token       string
	userAgent   string
	timeout     time.Duration
	maxBody     int64
	maxAttempts int
	http        *http.Client
	pacer       *pacer // nil when pacing is off
	trace       *tracer
	status      func(string)
	notice      func(string)
	tokenOrigin string
	baseHint    string
	redact      redactor
	clock       *clock
	jitter      func(time.Duration) time.Duration
}

// Request is one API call; Path is appended to the base URL's path.
type Request struct {
	Method     string     // "" → GET
	Path       string     // e.g. "/shop-api/back-in-stock/list"
	Query      url.Values // may be nil
	Body       []byte     // JSON; sets Content-Type: application/json when non-nil
	Idempotent bool       // allow network/5xx retries for a method other than GET and HEAD
	// Header holds extra headers, which may replace Accept, User-Agent and
	// Content-Type; Authorization is always the client's own.
	Header http.Header
}

// Response is a successful answer, or with Exchange any final answer.
type Response struct {
	Proto      string // "HTTP/1.1"
	Status     string // "200 OK"
	StatusCode int
	Header     http.Header
	Body       []byte // the raw bytes, validated as JSON when the answer is a success
}

// New checks cfg and builds a Client. It connects to nothing.
func New(cfg Config) (*Client, error) {
	if err := cfg.applyDefaults(); err != nil {
		return nil, err
	}
	base, err := parseBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	transport := cfg.Transport
	if transport == nil {
		transport = defaultTransport()
	}
	c := &Client{
		base:        base,
		token:       cfg.Token,
		userAgent:   cfg.UserAgent,
		timeout:     cfg.Timeout,
		maxBody:     cfg.MaxBody,
		maxAttempts: cfg.MaxAttempts,
		http: &http.Client{
			Transport: transport,
			// A followed redirect would silently turn a POST into a GET
			// and may leave https; the caller is told to fix the URL.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		trace:       &tracer{w: cfg.Debug, redact: newRedactor(cfg.Token)},
		status:      cfg.Status,
		notice:      cfg.Notice,
		tokenOrigin: cfg.TokenOrigin,
		baseHint:    cfg.BaseHint,
		redact:      newRedactor(cfg.Token),
		clock:       realClock(),
		jitter:      fullJitter,
	}
	if c.status == nil {
		c.status = func(string) {}
	}
	if c.notice == nil {
		c.notice = func(string) {}
	}
	if !cfg.Limit.Off() {
		store, fallback := c.paceStore(cfg.PaceDir), memoryPaceStore(cfg.Token)
		if shared := c.sharedPaceStore(cfg.SharedPace); shared != nil {
			store, fallback = shared, store
		}
		c.pacer = newPacer(cfg.Limit, store, fallback, c.clock, c.trace, c.status, c.notice)
	}
	return c, nil
}

func memoryPaceStore(token string) paceStore {
	return sharedStore("memory:"+tokenKey(token), func() paceStore { return &memoryStore{} })
}

func (c *Client) paceStore(dir string) paceStore {
	if dir == "" {
		return memoryPaceStore(c.token)
	}
	fs, err := newFileStore(dir, c.token)
	if err != nil {
		c.trace.notef("pacing state: %v; pacing within this process only", err)
		c.notice(sharingLost(err))
		return memoryPaceStore(c.token)
	}
	return sharedStore("file:"+fs.path, func() paceStore { return fs })
}

// sharedPaceStore opens the store every machine shares (nil when none is
// configured), one per token in this process; when it cannot be opened,
// pacing keeps to this machine, saying so.
func (c *Client) sharedPaceStore(open func(string) (PaceStore, error)) paceStore {
	if open == nil {
		return nil
	}
	key := tokenKey(c.token)
	stores.Lock()
	defer stores.Unlock()
	if s, ok := stores.m["shared:"+key]; ok {
		return s
	}
	ps, err := open(key)
	if err != nil {
		c.trace.notef("shared pacing state: %v; pacing on this machine only", err)
		c.notice(fmt.Sprintf("warning: cannot share the shop API rate limit with other machines (%v); pacing with this machine's storectl processes only, so commands run on other machines at the same time may get HTTP 429", err))
		return nil
	}
	stores.m["shared:"+key] = sharedPace{ps}
	return stores.m["shared:"+key]
}

// Do sends r, pacing, waiting out 429s and retrying where that is safe, and
// returns the answer or a typed error (APIError, AuthError, ResponseError,
// NetworkError, RateLimitError, or one wrapping the context's error).
func (c *Client) Do(ctx context.Context, r Request) (*Response, error) {
	resp, err := c.Exchange(ctx, r)
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// Exchange is Do for a caller that shows the server's answer whatever it
// says (storectl api): a final answer that Do turns into an error also
// comes back as the Response, next to that error.
func (c *Client) Exchange(ctx context.Context, r Request) (*Response, error) {
	x, err := c.newExchange(r)
	if err != nil {
		return nil, err
	}
	for {
		x.tries++
		res, err := c.attempt(ctx, x.method, x.u, r, x.tries+x.throttled)
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, fmt.Errorf("%s: %w", x.where, ctxErr)
		}
		if unsent := (*unsentError)(nil); errors.As(err, &unsent) {
			return nil, unsent.err
		}
		if err == nil && x.final(res) {
			return x.answer(res)
		}
		if err := x.wait(ctx, res, err); err != nil {
			return nil, err
		}
	}
}

// exchange is one request's way to its final answer, over its attempts.
type exchange struct {
	c          *Client
	method     string
	u          *url.URL
	where      string // "METHOD URL", redacted, for messages
	idempotent bool
	// tries counts attempts against MaxAttempts; a 429 is not one of
	// them, since the server did nothing: throttled counts those.
	tries, throttled int
}

func (c *Client) newExchange(r Request) (*exchange, error) {
	method := cmp.Or(strings.ToUpper(r.Method), http.MethodGet)
	u, err := c.resolve(r.Path, r.Query)
	if err != nil {
		return nil, err
	}
	return &exchange{c: c, method: method, u: u, where: method + " " + c.redactedURL(u),
		idempotent: r.Idempotent || method == http.MethodGet || method == http.MethodHead}, nil
}

// final reports an answer to give the caller: not a 429, and not one that
// an idempotent request with tries left tries again.
func (x *exchange) final(res *result) bool {
	if res.status == http.StatusTooManyRequests {
		return false
	}
	return !(x.idempotent && x.tries < x.c.maxAttempts && (res.truncated || retryableStatus(res.status)))
}

// wait sits out what comes before the next attempt, or returns the error
// that ends the exchange.
func (x *exchange) wait(ctx context.Context, res *result, err error) error {
	c := x.c
	switch {
	case err != nil && x.tries < c.maxAttempts && (x.idempotent || notSent(err)):
		err = c.pause(ctx, retryBackoff(x.tries, c.jitter), "network error: retrying in %s (attempt %d of %d)", x.tries+1, c.maxAttempts)
	case err != nil:
		return c.networkError(x.method, x.u, x.tries, err)
	case res.status == http.StatusTooManyRequests:
		x.tries--
		x.throttled++
		err = c.waitThrottled(ctx, res.header, x.throttled)
	default:
		err = c.waitRetry(ctx, res, x.tries)
	}
	if rl := (*RateLimitError)(nil); errors.As(err, &rl) || err == nil {
		return err
	}
	return fmt.Errorf("%s: %w", x.where, err)
}

// answer is the final answer as a Response, with the typed error a
// failure answer makes.
func (x *exchange) answer(res *result) (*Response, error) {
	resp := &Response{Proto: res.proto, Status: res.statusText, StatusCode: res.status, Header: res.header, Body: res.body}
	err := x.c.check(x.method, res)
	if err == nil {
		return resp, nil
	}
	switch e := err.(type) {
	case *ResponseError:
		e.Attempts = x.tries
	case *AuthError:
		e.TokenOrigin = x.c.tokenOrigin
	case *APIError:
		if e.routeMissing {
			e.hint = fmt.Sprintf("%s answered HTTP 404: no such address. %s", x.where, cmp.Or(x.c.baseHint, "Check that the base URL points at the store's API."))
		}
	}
	return resp, x.c.redactError(err)
}

// waitThrottled sits out the nth 429 in a row: as long as Retry-After says,
// or a capped exponential backoff when it says nothing usable. Every user
// of the token waits with it.
func (c *Client) waitThrottled(ctx context.Context, header http.Header, n int) error {
	wait, named := ParseRetryAfter(header.Get("Retry-After"), c.clock.now())
	switch {
	case named && wait > maxRetryAfter:
		return &RateLimitError{Retries: n - 1, Wait: wait}
	case n > max429Retries:
		return &RateLimitError{Retries: max429Retries}
	case !named:
		wait = throttleBackoff(n)
	}
	wait = max(wait, minThrottleWait)
	if c.pacer != nil {
		c.pacer.block(c.clock.now().Add(wait))
	}
	return c.pause(ctx, wait, "rate limited by the server: retrying in %s (retry %d of %d)", n, max429Retries)
}

// waitRetry backs off before another try of an idempotent request whose
// answer was a gateway error or arrived cut short.
func (c *Client) waitRetry(ctx context.Context, res *result, tries int) error {
	wait := retryBackoff(tries, c.jitter)
	if after, ok := ParseRetryAfter(res.header.Get("Retry-After"), c.clock.now()); ok && after <= maxRetryAfter {
		wait = max(wait, after)
	}
	reason := "incomplete answer"
	if !res.truncated {
		reason = "server error (" + statusLine(res.status) + ")"
	}
	return c.pause(ctx, wait, reason+": retrying in %s (attempt %d of %d)", tries+1, c.maxAttempts)
}

// result is one attempt's answer. truncated and tooLarge describe a body
// that could not be read whole.
type result struct {
	status     int
	proto      string
	statusText string
	header     http.Header
	body       []byte
	truncated  bool
	tooLarge   bool
}

func (c *Client) attempt(ctx context.Context, method string, u *url.URL, r Request, n int) (*result, error) {
	var answered http.Header // the answer's headers, for the budget it announces
	if c.pacer != nil {
		id, err := c.pacer.acquire(ctx, c.timeout)
		if err != nil {
			return nil, err
		}
		defer func() { c.pacer.finish(id, budgetOf(answered)) }()
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	body := r.Body
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), reader)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for name, values := range r.Header {
		req.Header[http.CanonicalHeaderKey(name)] = slices.Clone(values)
	}
	// Set last, so that no header of the caller's can replace or add to it.
	req.Header.Del("Authorization")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if err := beforeSend(ctx); err != nil {
		return nil, err
	}
	c.trace.request(req, body, n)
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		c.trace.failure(err, time.Since(start))
		return nil, err
	}
	defer resp.Body.Close()
	answered = resp.Header
	res := &result{status: resp.StatusCode, proto: resp.Proto, statusText: resp.Status, header: resp.Header}
	res.body, res.truncated, res.tooLarge, err = c.readBody(resp)
	if err != nil {
		c.trace.failure(err, time.Since(start))
		return nil, err
	}
	c.trace.response(resp, res.body, time.Since(start))
	return res, nil
}

// readBody reads at most maxBody bytes. A connection closed before the
// announced length is a truncated body, not a network failure: the server
// did answer.
func (c *Client) readBody(resp *http.Response) (body []byte, truncated, tooLarge bool, err error) {
	if resp.ContentLength > c.maxBody {
		return nil, false, true, nil
	}
	body, err = io.ReadAll(io.LimitReader(resp.Body, c.maxBody+1))
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return body, true, false, nil
	case err != nil:
		return nil, false, false, err
	case int64(len(body)) > c.maxBody:
		return nil, false, true, nil
	}
	return body, false, false, nil
}

// check turns a final answer into nil or a typed error.
func (c *Client) check(method string, res *result) error {
	contentType := res.header.Get("Content-Type")
	switch {
	case res.tooLarge:
		return &ResponseError{Status: res.status, ContentType: contentType,
			Problem: "the server's answer is larger than the limit of " + byteSize(c.maxBody),
			Hint:    "ask for less at once (a smaller page or fewer items)"}
	case res.truncated:
		return &ResponseError{Status: res.status, ContentType: contentType, Snippet: snippet(res.body),
			Problem: fmt.Sprintf("the server's answer was cut short after %d bytes", len(res.body)),
			Hint:    "try again"}
	}
	return decodeError(method, res.status, res.header, res.body)
}

// pause waits before the next try, telling the user why. format takes the
// wait first, then args.
func (c *Client) pause(ctx context.Context, wait time.Duration, format string, args ...any) error {
	render := func(left time.Duration) string {
		return fmt.Sprintf(format, append([]any{humanWait(left)}, args...)...)
	}
	c.trace.notef("%s", render(wait))
	return countdown(ctx, c.clock, c.status, wait, render)
}

// PaceLeft is the least time before n more requests can all have been
// sent under the pace (and any wait the server asked for); 0 when pacing
// is off. Progress uses it so that an ETA never promises faster than the
// throttle allows.
func (c *Client) PaceLeft(n int) time.Duration {
	if c.pacer == nil {
		return 0
	}
	return c.pacer.timeFor(n)
}

// Paced reports whether the client paces its requests.
func (c *Client) Paced() bool { return c.pacer != nil }

func (c *Client) resolve(path string, query url.Values) (*url.URL, error) {
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("invalid request path %q: pass query parameters in Request.Query", path)
	}
	raw := c.base.String()
	if path != "" {
		raw += "/" + strings.TrimLeft(path, "/")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host != c.base.Host {
		return nil, fmt.Errorf("invalid request path %q: it must be a path below the base URL", path)
	}
	u.RawQuery = query.Encode()
	return u, nil
}

// redactError hides the token should the server echo it in a message; the
// raw body is left to the caller.
func (c *Client) redactError(err error) error {
	switch e := err.(type) {
	case *APIError:
		e.Message = c.redact.String(e.Message)
		for field, msgs := range e.Details {
			for i := range msgs {
				msgs[i] = c.redact.String(msgs[i])
			}
			e.Details[field] = msgs
		}
	case *AuthError:
		e.Message = c.redact.String(e.Message)
	case *ResponseError:
		e.Snippet = c.redact.String(e.Snippet)
		e.Problem = c.redact.String(e.Problem)
	}
	return err
}

func (c *Client) redactedURL(u *url.URL) string { return c.redact.String(u.String()) }

func (c *Client) networkError(method string, u *url.URL, tries int, err error) error {
	msg := fmt.Sprintf("%s %s: %s", method, c.redactedURL(u), describeNetworkError(err, c.timeout))
	if tries > 1 {
		msg += fmt.Sprintf(" (after %d attempts)", tries)
	}
	ne := &NetworkError{Method: method, URL: c.redactedURL(u), Attempts: tries, Err: err, msg: c.redact.String(msg)}
	if timedOut(err) {
		ne.Timeout = c.timeout
	}
	return ne
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
