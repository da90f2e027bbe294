package mcp

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/fsutil"
)

// PlanTTL is how long a plan may be applied after it was made: long
// enough to show it and be answered, short enough that the store it was
// made from is still the store it changes.
const PlanTTL = 10 * time.Minute

// plans keeps the plans comingsoon_plan made, each in a directory of its
// own (mode 0700, files 0600: rules name products and dates not yet
// public): the rules it was made from, what it plans, the journal of its
// apply and how the apply went. Kept on disk, an apply a crash stopped is
// continued by the next server, as `comingsoon apply --resume` would.
type plans struct{ dir string }

// planRecord is what a plan is.
type planRecord struct {
	ID      string            `json:"id"`
	Profile string            `json:"profile"`
	Prune   bool              `json:"prune"`
	Made    time.Time         `json:"made"`
	Expires time.Time         `json:"expires"`
	Digest  string            `json:"digest"`
	Summary string            `json:"summary"`
	Steps   []json.RawMessage `json:"steps"`
}

// planOutcome is how its apply ended, once it has.
type planOutcome struct {
	Ended   time.Time `json:"ended"`
	Outcome string    `json:"outcome"` // applied, partly applied, refused
	Message string    `json:"message,omitempty"`
}

func newPlanID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

func (p plans) path(id, name string) string { return filepath.Join(p.dir, id, name) }

// validID refuses an id that is not one this server makes, before it
// names a directory.
func validID(id string) bool {
	if len(id) != 24 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil
}

// create makes a plan's directory and writes the rules it is made from.
func (p plans) create(rules []byte) (id, rulesPath string, err error) {
	id = newPlanID()
	rulesPath = p.path(id, "rules.json")
	if err := fsutil.WriteFileAtomic(rulesPath, rules, 0o600); err != nil {
		return "", "", err
	}
	return id, rulesPath, nil
}

func (p plans) save(r *planRecord) error {
	raw, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(p.path(r.ID, "plan.json"), raw, 0o600)
}

// load reads a plan, for the profile it must be for.
func (p plans) load(id, profile string) (*planRecord, error) {
	if !validID(id) {
		return nil, noPlan(id)
	}
	raw, err := os.ReadFile(p.path(id, "plan.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, noPlan(id)
	}
	if err != nil {
		return nil, err
	}
	var r planRecord
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("plan %s: %w", id, err)
	}
	if r.Profile != profile {
		return nil, exitcode.UsageHint(fmt.Errorf("plan %s was made for profile %q, not %q; nothing was sent", id, r.Profile, profile),
			"apply a plan to the store it was made for, or make one for this store")
	}
	return &r, nil
}

func noPlan(id string) error {
	return exitcode.UsageHint(fmt.Errorf("there is no plan %q; nothing was sent", id), "make one with comingsoon_plan, show it, then apply it by the plan_id it gives")
}

// lock keeps a plan to one apply at a time, across every storectl
// sharing the state directory; nil when another holds it.
func (p plans) lock(id string) (*flock.Flock, error) {
	l := flock.New(p.path(id, "apply.lock"))
	ok, err := l.TryLock()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, exitcode.UsageHint(fmt.Errorf("plan %s is being applied by another call just now; nothing was sent", id),
			"wait for that call's answer")
	}
	return l, nil
}

// started reports whether an apply of the plan began (it may have been
// stopped part way).
func (p plans) started(id string) bool {
	_, err := os.Stat(p.path(id, "started"))
	return err == nil
}

// start records that the plan's apply begins.
func (p plans) start(id string) error {
	return fsutil.WriteFileAtomic(p.path(id, "started"), []byte(time.Now().UTC().Format(time.RFC3339)), 0o600)
}

// outcome is how the plan's apply ended, nil while it has not.
func (p plans) outcome(id string) (*planOutcome, error) {
	raw, err := os.ReadFile(p.path(id, "outcome.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var o planOutcome
	return &o, json.Unmarshal(raw, &o)
}

func (p plans) end(id string, o planOutcome) error {
	raw, err := json.Marshal(o)
	if err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(p.path(id, "outcome.json"), raw, 0o600)
}
