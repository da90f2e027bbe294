package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/output"
)

// call is one tool call being answered.
type call struct {
	tool    *tool
	profile string
	args    json.RawMessage
	now     time.Time
	// say sends a line to the client as a log message (and keeps it, for
	// an error that only the lines explain).
	say  func(string)
	mu   sync.Mutex
	said []string
}

// storeArg and pageArgs are in every input that names a store, and every
// one that lists.
type storeArg struct {
	Profile string `json:"profile,omitempty"`
}

type pageArgs struct {
	Limit  int    `json:"limit,omitempty"`
	Cursor string `json:"cursor,omitempty"`
}

func (p *pageArgs) paging() *pageArgs { return p }

// pager is an input with pageArgs.
type pager interface{ paging() *pageArgs }

// decode reads the call's arguments into in, refusing any the tool does
// not take: a misspelt filter must not widen a search.
func (c *call) decode(in any) error {
	args := c.args
	if len(bytes.TrimSpace(args)) == 0 || string(bytes.TrimSpace(args)) == "null" {
		args = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(in); err != nil {
		return exitcode.UsageHint(fmt.Errorf("the arguments of %s: %s", c.tool.name, strings.TrimPrefix(err.Error(), "json: ")),
			"see the tool's input schema for the arguments it takes")
	}
	return nil
}

// position reads an input's cursor, which must be of the same question.
func (c *call) position(in pager) (q string, at cursor, limit int, err error) {
	p := in.paging()
	saved := *p
	*p = pageArgs{}
	q = question(c.tool.name, c.profile, in)
	*p = saved
	at, err = readCursor(saved.Cursor, q)
	return q, at, saved.Limit, err
}

// keep notes a line the command said.
func (c *call) keep(line string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.said = append(c.said, line)
}

func (c *call) lines() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.said)
}

// id is an id argument: digits as a string, or an integer, kept as the
// digits given (the command checks them, with its own words).
type id string

func (i *id) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*i = id(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return errors.New("an id is digits, as a string or an integer")
	}
	*i = id(n)
	return nil
}

// argv builds a command line: flags as --name=value, so that no value can
// be read as another flag.
type argv []string

func (a *argv) opt(name, value string) {
	if value != "" {
		*a = append(*a, "--"+name+"="+value)
	}
}

func (a *argv) on(name string, set bool) {
	if set {
		*a = append(*a, "--"+name)
	}
}

func (a *argv) each(name string, values []string) {
	for _, v := range values {
		a.opt(name, v)
	}
}

// items are the list items a command printed, in order.
func items(ans *Answer) []json.RawMessage {
	var out []json.RawMessage
	for _, p := range ans.Parts {
		if !p.Single {
			out = append(out, p.Items...)
		}
	}
	return out
}

// single is the one object a command printed (a get, a report).
func single(ans *Answer) (json.RawMessage, error) {
	for _, p := range ans.Parts {
		if p.Single && len(p.Items) == 1 {
			return p.Items[0], nil
		}
	}
	return nil, errors.New("the command printed no answer")
}

// run runs a command for the call's store, its lines sent to the client.
func (s *server) run(ctx context.Context, c *call, cl Call) (*Answer, error) {
	cl.Profile = c.profile
	cl.Say = c.say
	if cl.Format == "" {
		cl.Format = string(output.JSON)
	}
	return s.opts.Runner.Run(ctx, cl)
}
