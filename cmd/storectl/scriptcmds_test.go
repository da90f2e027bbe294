package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/storectl/storectl/internal/sandbox"
)

// cmdExits runs a program, as exec does, and checks its exit code, which
// exec can only tell apart as zero or not. Its stdout and stderr are kept
// for the lines that follow.
//
//	exits N PROGRAM [ARGS...]
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %q is not an exit code", args[0])
	}
	got := 0
	var exitErr *exec.ExitError
	switch err := ts.Exec(args[1], args[2:]...); {
	case errors.As(err, &exitErr):
		got = exitErr.ExitCode()
	case err != nil:
		ts.Fatalf("%s: %v", args[1], err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// cmdWaitFile waits (up to 10 s) until FILE exists and is not empty: a
// background `sandbox serve --url-file FILE` is then listening.
//
//	waitfile FILE
func cmdWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfile FILE")
	}
	path := ts.MkAbs(args[0])
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if info, err := os.Stat(path); err == nil && info.Size() > 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	ts.Fatalf("%s did not appear within 10s", args[0])
}

// cmdHTTPGet is a minimal curl: it prints the status line, the rate-limit
// headers and the body of a GET to stdout, so scripts can check what any
// HTTP client sees. A URL starting with @FILE takes its base from FILE.
//
// With -repeat N it sends N requests and shows the last answer.
//
//	httpget [-repeat N] URL [TOKEN]
func cmdHTTPGet(ts *testscript.TestScript, neg bool, args []string) {
	repeat := 1
	if len(args) > 2 && args[0] == "-repeat" {
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		repeat, args = n, args[2:]
	}
	if len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: httpget [-repeat N] URL [TOKEN]")
	}
	url := args[0]
	if strings.HasPrefix(url, "@") {
		file, path, _ := strings.Cut(url[1:], "/")
		url = strings.TrimSpace(ts.ReadFile(file)) + "/" + path
	}
	req, err := http.NewRequest("GET", url, nil)
	ts.Check(err)
	if len(args) == 2 {
		req.Header.Set("Authorization", "Bearer "+args[1])
	}
	resp, err := http.DefaultClient.Do(req)
	for i := 1; i < repeat && err == nil; i++ {
		resp.Body.Close()
		resp, err = http.DefaultClient.Do(req)
	}
	if err != nil {
		if !neg {
			ts.Fatalf("GET %s: %v", url, err)
		}
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	io.WriteString(ts.Stdout(), resp.Status+"\n")
	for _, h := range []string{"Retry-After", "X-Ratelimit-Limit", "X-Ratelimit-Remaining"} {
		if v := resp.Header.Get(h); v != "" {
			io.WriteString(ts.Stdout(), h+": "+v+"\n")
		}
	}
	ts.Stdout().Write(body)
	if (resp.StatusCode >= 400) != neg {
		ts.Fatalf("GET %s: unexpected %s", url, resp.Status)
	}
}

// cmdSandboxGrow registers N new back-in-stock submissions in a sandbox
// state file, as a live store's customers would: a `sandbox serve --state
// FILE` sees them from its next request on.
//
//	sandboxgrow FILE N
func cmdSandboxGrow(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sandboxgrow FILE N")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	store, err := sandbox.OpenFileStore(ts.MkAbs(args[0]))
	ts.Check(err)
	ts.Check(sandbox.AddSubmissions(store, n, time.Now()))
}

// cmdSandboxSend sends the restock e-mail of a variant's pending
// submissions in a sandbox state file (status 1, last_sent and updated_at
// now), as the store does when the variant is back in stock.
//
//	sandboxsend FILE VARIANT_ID
func cmdSandboxSend(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sandboxsend FILE VARIANT_ID")
	}
	variant, err := strconv.ParseInt(args[1], 10, 64)
	ts.Check(err)
	store, err := sandbox.OpenFileStore(ts.MkAbs(args[0]))
	ts.Check(err)
	now := time.Now().UTC()
	ts.Check(store.Update(func(st *sandbox.State) error {
		for i := range st.Submissions {
			if s := &st.Submissions[i]; s.VariantID == variant && s.Status == 0 {
				s.Status, s.LastSent, s.UpdatedAt = 1, &now, now
			}
		}
		return nil
	}))
}

// cmdProxyRec starts an HTTP proxy that forwards nothing: it records each
// request it is sent (method, URL and whether it carried an Authorization
// header) to $WORK/NAME.requests and answers 502. Its URL is $PROXY_NAME.
//
//	proxyrec NAME
func cmdProxyRec(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: proxyrec NAME")
	}
	log, err := os.OpenFile(ts.MkAbs(args[0]+".requests"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	ts.Check(err)
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		fmt.Fprintf(log, "%s %s auth=%v\n", r.Method, r.RequestURI, r.Header.Get("Authorization") != "")
		mu.Unlock()
		http.Error(w, "proxyrec forwards nothing", http.StatusBadGateway)
	}))
	ts.Defer(func() { srv.Close(); log.Close() })
	ts.Setenv("PROXY_"+strings.ToUpper(args[0]), srv.URL)
}

// cmdSilentServer (silentserver NAME) listens on loopback, accepts every
// connection and never answers, as a server whose socket stays open while
// it does not run; $SILENT_NAME is its host:port. It closes each
// connection after a while, so that a client without a bound fails the
// script rather than hanging it.
func cmdSilentServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: silentserver NAME")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	ts.Defer(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			time.AfterFunc(20*time.Second, func() { c.Close() })
		}
	}()
	ts.Setenv("SILENT_"+strings.ToUpper(args[0]), ln.Addr().String())
}
