package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/storectl/storectl/internal/watch"
)

// cmdWebhookRecv starts a webhook receiver for the rest of the script, as
// a merchant's endpoint would be, checking every request's
// Storectl-Signature with SECRET:
//
//	webhookrecv NAME SECRET [fail=N] [hold=K] [status=CODE] [redirect] [slow=DURATION]
//
// Its URL is $WEBHOOK_NAME. Each event it accepts (signature valid, 2xx
// answered) is appended to $WORK/NAME.events as "ID TYPE"; every request to
// $WORK/NAME.requests as "ID STATUS" ("ID badsig" for a signature that
// does not verify, answered 401). fail=N answers the first N requests 500;
// hold=K holds the K-th request unanswered (writing $WORK/NAME.holding)
// until the client goes away, and records nothing for it: the sender is
// killed between its outbox and the receiver; status=CODE answers every
// request CODE (410: a receiver gone); redirect answers 307 to another
// path of the same server, which accepts (recorded as "ID followed");
// slow=DURATION waits before each answer.
func cmdWebhookRecv(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: webhookrecv NAME SECRET [fail=N] [hold=K] [status=CODE] [redirect] [slow=DURATION]")
	}
	r := &receiver{ts: ts, secret: args[1], status: http.StatusNoContent}
	r.parse(args[2:])
	name := args[0]
	events, err := os.OpenFile(ts.MkAbs(name+".events"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	ts.Check(err)
	requests, err := os.OpenFile(ts.MkAbs(name+".requests"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	ts.Check(err)
	r.events, r.requests, r.holding = events, requests, ts.MkAbs(name+".holding")
	srv := httptest.NewServer(r)
	ts.Defer(func() { srv.CloseClientConnections(); srv.Close(); events.Close(); requests.Close() })
	ts.Setenv("WEBHOOK_"+strings.ToUpper(name), srv.URL+"/hook?token=query-secret")
}

type receiver struct {
	ts               *testscript.TestScript
	secret           string
	fail, hold       int
	status           int
	redirect         bool
	slow             time.Duration
	events, requests io.Writer
	holding          string
	mu               sync.Mutex
	served           int
}

func (r *receiver) parse(opts []string) {
	for _, o := range opts {
		k, v, _ := strings.Cut(o, "=")
		var err error
		switch k {
		case "fail":
			r.fail, err = strconv.Atoi(v)
		case "hold":
			r.hold, err = strconv.Atoi(v)
		case "status":
			r.status, err = strconv.Atoi(v)
		case "redirect":
			r.redirect = true
		case "slow":
			r.slow, err = time.ParseDuration(v)
		default:
			err = fmt.Errorf("unknown option")
		}
		if err != nil {
			r.ts.Fatalf("webhookrecv %s: %v", o, err)
		}
	}
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	id := req.Header.Get("Storectl-Event-Id")
	if err := r.check(req, id, body); err != nil {
		r.record(r.requests, id+" badsig "+err.Error())
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	r.mu.Lock()
	r.served++
	n := r.served
	r.mu.Unlock()
	time.Sleep(r.slow)
	status := r.status
	switch {
	case req.URL.Path == "/followed":
		r.record(r.requests, id+" followed")
		return
	case n == r.hold:
		r.record(r.requests, id+" held")
		r.ts.Check(os.WriteFile(r.holding, []byte(id+"\n"), 0o644))
		<-req.Context().Done()
		return
	case r.redirect:
		http.Redirect(w, req, "/followed", http.StatusTemporaryRedirect)
		status = http.StatusTemporaryRedirect
	case n <= r.fail:
		status = http.StatusInternalServerError
		w.WriteHeader(status)
	default:
		w.WriteHeader(status)
	}
	r.record(r.requests, id+" "+strconv.Itoa(status))
	if status/100 == 2 {
		var ev struct{ Type string }
		_ = json.Unmarshal(body, &ev)
		r.record(r.events, id+" "+ev.Type)
	}
}

// check verifies the signature as a receiver must, and that the event id
// header matches the body's.
func (r *receiver) check(req *http.Request, id string, body []byte) error {
	if err := watch.Verify(r.secret, req.Header.Get(watch.SignatureHeader), body, time.Now(), 5*time.Minute); err != nil {
		return err
	}
	var ev struct{ ID string }
	if err := json.Unmarshal(body, &ev); err != nil || ev.ID != id {
		return fmt.Errorf("Storectl-Event-Id %q is not the body's id %q", id, ev.ID)
	}
	return nil
}

func (r *receiver) record(w io.Writer, line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintln(w, line)
}
