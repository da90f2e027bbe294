package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/output"
)

// mirror status, less where the mirror is (a path, or a PostgreSQL URL)
// and the store's address: a client names a store by its profile.
func runStatus(ctx context.Context, s *server, c *call) (*result, error) {
	var in storeArg
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	ans, err := s.run(ctx, c, Call{Args: argv{"mirror", "status"}})
	if err != nil {
		return nil, err
	}
	status, err := single(ans)
	if err != nil {
		return nil, err
	}
	for _, key := range []string{"path", "store"} {
		if status, _, err = cut(status, key); err != nil {
			return nil, err
		}
	}
	r := &result{Profile: c.profile, Source: "mirror", Freshness: "the mirror's own record of its syncs; no request sent"}
	r.Data, err = s.clean.item(status)
	return r, err
}

type syncInput struct {
	storeArg
	Lists      []string `json:"lists,omitempty"`
	MaxSeconds int      `json:"max_seconds,omitempty"`
}

// syncLists are the mirror's lists, in the order a sync reads them.
var syncLists = []string{"bis", "preorder", "comingsoon"}

// Sync time: an assistant waits for the call, so a sync stops after
// max_seconds (default defaultSyncSeconds) and the next call continues it
// where it stopped, as an interrupted `mirror sync` does.
const (
	defaultSyncSeconds = 45
	maxSyncSeconds     = 600
)

// runSync brings lists up to date with an incremental sync (a first one
// reads every page): it says before it starts how many requests that is
// at least, and the command says how long a long read takes at the pace.
func runSync(ctx context.Context, s *server, c *call) (*result, error) {
	var in syncInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	lists := in.Lists
	if len(lists) == 0 {
		lists = syncLists
	}
	for _, l := range lists {
		if !slices.Contains(syncLists, l) {
			return nil, usage(fmt.Sprintf("lists: %q is not a list of the mirror: use bis, preorder or comingsoon", l))
		}
	}
	seconds := in.MaxSeconds
	if seconds <= 0 {
		seconds = defaultSyncSeconds
	}
	seconds = min(seconds, maxSyncSeconds)
	c.say(fmt.Sprintf("syncing %s: at least %s to the shop API (one a list when nothing changed; a list's first sync reads every page), for at most %ds",
		strings.Join(lists, ", "), output.Plural(len(lists), "request"), seconds))
	ctx, cancel := context.WithTimeout(ctx, time.Duration(seconds)*time.Second)
	defer cancel()
	a := append(argv{"mirror", "sync"}, lists...)
	ans, err := s.run(ctx, c, Call{Args: a, Groups: lists, Requests: len(lists)})
	r := &result{Profile: c.profile}
	if err != nil {
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, err
		}
		r.fromMirror(time.Time{}, c.now)
		r.Truncated = true
		r.Freshness = fmt.Sprintf("the sync stopped after %ds, keeping every page it read: call mirror_sync again to continue where it stopped", seconds)
		r.Notes = c.lines()
		return r, nil
	}
	passes := items(ans)
	r.fromMirror(ans.AsOf, c.now)
	r.Source = "store"
	r.Freshness = "the mirror was brought up to date just now, reading the store"
	r.RequestsSent = requestsOf(passes)
	total := len(passes)
	r.Total = &total
	for _, p := range passes {
		item, err := s.clean.item(p)
		if err != nil {
			return nil, err
		}
		r.Items = append(r.Items, item)
	}
	r.Returned = len(r.Items)
	return r, nil
}

// requestsOf counts a sync's requests from its passes: a page each, a
// detail each.
func requestsOf(passes []json.RawMessage) int {
	n := 0
	for _, raw := range passes {
		var p struct {
			Pages   int `json:"pages"`
			Details int `json:"details_fetched"`
		}
		if json.Unmarshal(raw, &p) == nil {
			n += p.Pages + p.Details
		}
	}
	return n
}
