package mcp

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/output"
)

// Every result says how complete and how fresh it is, whatever the tool.
type result struct {
	Profile string `json:"profile"`
	// Source is where the answer came from: "mirror" (no request),
	// "store" (the shop API, now) or "catalog" (the catalog API, now).
	Source string `json:"source"`
	// AsOf is when what the answer says was true: the mirror's last pass
	// over what it read, or now for the store's answers.
	AsOf      string `json:"as_of,omitempty"`
	Freshness string `json:"freshness"`
	// Total is how many items the whole answer holds; null when the store
	// does not say.
	Total      *int              `json:"total"`
	Returned   int               `json:"returned"`
	Truncated  bool              `json:"truncated"`
	NextCursor string            `json:"next_cursor,omitempty"`
	Items      []json.RawMessage `json:"items,omitempty"`
	// Data is the answer that is one object (a get, a report's summary, a
	// plan), cleaned as items are.
	Data         json.RawMessage `json:"data,omitempty"`
	RequestsSent int             `json:"requests_sent"`
	Notes        []string        `json:"notes,omitempty"`
}

// Results are capped: a page holds at most maxLimit items (defaultLimit
// unless the call asks), and its items at most maxItemBytes of JSON, so
// that no answer floods an assistant's context.
const (
	defaultLimit = 25
	maxLimit     = 200
	maxItemBytes = 96 << 10
)

// page fills r with the items from offset on, cleaned, as many as limit
// and the cap allow; next is the offset a next page starts at (0: none).
func (r *result) page(items []json.RawMessage, offset, limit int, c cleaner) (next int, err error) {
	if limit <= 0 {
		limit = defaultLimit
	}
	limit = min(limit, maxLimit)
	total := len(items)
	r.Total = &total
	size := 0
	i := offset
	for ; i < len(items) && len(r.Items) < limit; i++ {
		item, err := c.item(items[i])
		if err != nil {
			return 0, fmt.Errorf("item %d of the answer: %w", i+1, err)
		}
		if len(item) > maxItemBytes {
			item = oversized(item)
		}
		if size+len(item) > maxItemBytes && len(r.Items) > 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("this page stops at %s of JSON; the next cursor continues", output.Plural(maxItemBytes>>10, "KiB")))
			break
		}
		size += len(item)
		r.Items = append(r.Items, item)
	}
	r.Returned = len(r.Items)
	if i < len(items) {
		r.Truncated = true
		return i, nil
	}
	return 0, nil
}

// oversized stands for an item too large for any page: its id, if it has
// one, and its size.
func oversized(item json.RawMessage) json.RawMessage {
	var head struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(item, &head)
	raw, _ := json.Marshal(struct {
		ID      json.RawMessage `json:"id,omitempty"`
		Omitted string          `json:"omitted"`
	}{head.ID, fmt.Sprintf("this item is %d bytes of JSON, more than a page may hold (%d); read it with the storectl command line", len(item), maxItemBytes)})
	return raw
}

// fromMirror says where an answer from the mirror came from and how old it is.
func (r *result) fromMirror(asOf, now time.Time) {
	r.Source = "mirror"
	if asOf.IsZero() {
		r.Freshness = "from the mirror; no request sent"
		return
	}
	r.AsOf = asOf.UTC().Format(time.RFC3339)
	r.Freshness = "from the mirror, synced " + output.Ago(asOf, now) + "; no request sent"
}

// fromStore says an answer came from the store just now.
func (r *result) fromStore(source string, requests int, now time.Time) {
	r.Source = source
	r.AsOf = now.UTC().Format(time.RFC3339)
	r.RequestsSent = requests
	api := "the shop API"
	if source == "catalog" {
		api = "the catalog API"
	}
	r.Freshness = fmt.Sprintf("from the store just now (%s to %s)", output.Plural(requests, "request"), api)
}

// cursor is where the next page of an answer starts: an offset into the
// answer, or a page of the store's; Q ties it to the question.
type cursor struct {
	Q string `json:"q"`
	O int    `json:"o,omitempty"`
	P int    `json:"p,omitempty"`
	I string `json:"i,omitempty"` // a plan's id: its next page is read back
}

func (c cursor) String() string {
	raw, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(raw)
}

// question names a call's question (the tool, the store, its arguments
// but the page's), for its cursors.
func question(tool, profile string, args any) string {
	raw, _ := json.Marshal(args)
	sum := sha256.Sum256([]byte(tool + "\x00" + profile + "\x00" + string(raw)))
	return hex.EncodeToString(sum[:8])
}

// readCursor reads a cursor given back, which must be of the same question.
func readCursor(s, q string) (cursor, error) {
	var c cursor
	if s == "" {
		return cursor{Q: q}, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(raw, &c)
	}
	if err != nil || c.O < 0 || c.P < 0 {
		return c, exitcode.UsageError("the cursor is not one this server gave: ask again without it")
	}
	if c.Q != q {
		return c, exitcode.UsageError("the cursor belongs to another question (other arguments or another profile): ask again without it, or with the arguments it was given for")
	}
	return c, nil
}
