package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdFakeAPI starts a scripted HTTP server for the rest of the script:
//
//	fakeapi ROUTES [NAME]
//
// ROUTES has one response per line: METHOD PATH STATUS [Header:value]... BODY,
// where BODY is inline text or @file. Lines with the same METHOD and PATH are
// served in turn and the last one repeats. The server's URL is $FAKEAPI;
// every request is appended to $WORK/fakeapi.log as
// "METHOD /path?query auth=<Authorization header> body" so scripts can
// assert what was sent, or that nothing was. A script that needs several
// servers names each: the URL of "fakeapi routes.txt beta" is
// $FAKEAPI_BETA and its log $WORK/beta.log.
func cmdFakeAPI(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: fakeapi ROUTES [NAME]")
	}
	urlVar, logName := "FAKEAPI", "fakeapi.log"
	if len(args) == 2 {
		urlVar, logName = "FAKEAPI_"+strings.ToUpper(args[1]), args[1]+".log"
	}
	routes := map[string][]fakeResponse{}
	sc := bufio.NewScanner(strings.NewReader(ts.ReadFile(args[0])))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, resp := parseFakeRoute(ts, line)
		routes[key] = append(routes[key], resp)
	}
	log, err := os.OpenFile(ts.MkAbs(logName), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	ts.Check(err)
	var mu sync.Mutex
	served := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		fmt.Fprintf(log, "%s %s auth=%s %s\n", r.Method, r.URL.RequestURI(), r.Header.Get("Authorization"), body)
		key := r.Method + " " + r.URL.Path
		list := routes[key]
		n := served[key]
		served[key]++
		mu.Unlock()
		if len(list) == 0 {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"success":false,"message":"no such fake route"}`)
			return
		}
		resp := list[min(n, len(list)-1)]
		for k, v := range resp.header {
			w.Header().Set(k, v)
		}
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(resp.status)
		io.WriteString(w, resp.body)
	}))
	ts.Defer(func() { srv.Close(); log.Close() })
	ts.Setenv(urlVar, srv.URL)
}

type fakeResponse struct {
	status int
	header map[string]string
	body   string
}

func parseFakeRoute(ts *testscript.TestScript, line string) (string, fakeResponse) {
	fields := strings.SplitN(line, " ", 4)
	if len(fields) < 3 {
		ts.Fatalf("fakeapi: bad route %q", line)
	}
	status, err := strconv.Atoi(fields[2])
	if err != nil {
		ts.Fatalf("fakeapi: bad status in %q", line)
	}
	resp := fakeResponse{status: status, header: map[string]string{}}
	rest := ""
	if len(fields) == 4 {
		rest = fields[3]
	}
	for {
		word, tail, _ := strings.Cut(rest, " ")
		name, value, ok := strings.Cut(word, ":")
		if !ok || strings.ContainsAny(name, `{"[`) || name == "" {
			break
		}
		resp.header[name] = value
		rest = tail
	}
	if strings.HasPrefix(rest, "@") {
		rest = ts.ReadFile(rest[1:])
	}
	resp.body = rest
	return fields[0] + " " + fields[1], resp
}
