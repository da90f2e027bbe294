package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/ruleform"
)

// The two steps of a write, registered only with --allow-writes: a plan
// (comingsoon apply --dry-run: what would be created, replaced, deleted;
// nothing sent) the assistant shows, then the apply of exactly that plan,
// by its id, once, before it expires, journaled and resumable as
// `comingsoon apply` is.

type planInput struct {
	storeArg
	Rules json.RawMessage `json:"rules"`
	Prune bool            `json:"prune,omitempty"`
	pageArgs
}

func runPlan(ctx context.Context, s *server, c *call) (*result, error) {
	var in planInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	q, at, limit, err := c.position(&in)
	if err != nil {
		return nil, err
	}
	var rec *planRecord
	if at.I != "" {
		// The next page of a plan made: read back, not made again.
		if rec, err = s.plans.load(at.I, c.profile); err != nil {
			return nil, err
		}
	} else if rec, err = s.makePlan(ctx, c, in); err != nil {
		return nil, err
	}
	r := &result{Profile: c.profile, Source: "store", AsOf: rec.Made.UTC().Format(time.RFC3339), RequestsSent: 0,
		Freshness: "planned from the store's rules as read when the plan was made"}
	data, _ := json.Marshal(struct {
		PlanID  string `json:"plan_id"`
		Expires string `json:"expires_at"`
		Summary string `json:"summary"`
		Apply   string `json:"apply"`
	}{rec.ID, rec.Expires.UTC().Format(time.RFC3339), rec.Summary,
		"show this plan to the user; if they agree, call comingsoon_apply with this plan_id before it expires"})
	r.Data = data
	next, err := r.page(rec.Steps, at.O, limit, s.clean)
	if err != nil {
		return nil, err
	}
	if next > 0 {
		r.NextCursor = cursor{Q: q, O: next, I: rec.ID}.String()
	}
	return r, nil
}

// makePlan runs the dry run on the rules given and keeps the plan.
func (s *server) makePlan(ctx context.Context, c *call, in planInput) (*planRecord, error) {
	if len(bytes.TrimSpace(in.Rules)) == 0 || bytes.TrimSpace(in.Rules)[0] != '[' {
		return nil, usage("rules: give the coming-soon rules that should exist, as a list of objects with the keys of `comingsoon create --from-file` (name, start_date, end_date, apply_to, product_ids, …)")
	}
	id, rulesPath, err := s.plans.create(in.Rules)
	if err != nil {
		return nil, err
	}
	a := argv{"comingsoon", "apply", "--file=" + rulesPath, "--dry-run"}
	a.on("prune", in.Prune)
	ans, err := s.run(ctx, c, Call{Args: a, Groups: nil, Requests: 1})
	if err != nil {
		return nil, err
	}
	steps := items(ans)
	rec := &planRecord{ID: id, Profile: c.profile, Prune: in.Prune, Made: c.now, Expires: c.now.Add(PlanTTL),
		Digest: ruleform.PlanDigest(steps), Steps: steps, Summary: said(c, "plan: ")}
	if err := s.plans.save(rec); err != nil {
		return nil, err
	}
	return rec, nil
}

// said is the last line the command said that starts with prefix, less it.
func said(c *call, prefix string) string {
	lines := c.lines()
	for i := len(lines) - 1; i >= 0; i-- {
		if rest, ok := strings.CutPrefix(lines[i], prefix); ok {
			return rest
		}
	}
	return ""
}

type applyInput struct {
	storeArg
	PlanID string `json:"plan_id"`
}

func runApply(ctx context.Context, s *server, c *call) (*result, error) {
	var in applyInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	rec, err := s.plans.load(strings.TrimSpace(in.PlanID), c.profile)
	if err != nil {
		return nil, err
	}
	lock, err := s.plans.lock(rec.ID)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	if done, err := s.plans.outcome(rec.ID); err != nil || done != nil {
		if err != nil {
			return nil, err
		}
		return nil, exitcode.UsageHint(fmt.Errorf("plan %s was %s on %s, and a plan is applied once; nothing was sent", rec.ID, done.Outcome, done.Ended.UTC().Format(time.RFC3339)),
			"make a new plan with comingsoon_plan to change the store again")
	}
	// An apply stopped part way is continued, even past the expiry: it
	// finishes what was shown and agreed to.
	resume := s.plans.started(rec.ID)
	if !resume {
		if c.now.After(rec.Expires) {
			return nil, exitcode.UsageHint(fmt.Errorf("plan %s expired at %s (a plan may be applied for %s after it is made); nothing was sent",
				rec.ID, rec.Expires.UTC().Format(time.RFC3339), PlanTTL), "make the plan again with comingsoon_plan, show it, and apply the new one")
		}
		if err := s.plans.start(rec.ID); err != nil {
			return nil, err
		}
	}
	a := argv{"comingsoon", "apply", "--file=" + s.plans.path(rec.ID, "rules.json"), "--yes",
		"--report=" + s.plans.path(rec.ID, "journal.csv"), "--expect-plan=" + rec.Digest}
	a.on("prune", rec.Prune)
	a.on("resume", resume)
	ans, err := s.run(ctx, c, Call{Args: a, Requests: 1})
	code := exitcode.Of(err)
	switch {
	case err == nil:
		err = s.plans.end(rec.ID, planOutcome{Ended: c.now, Outcome: "applied"})
	case code == exitcode.Partial:
		err = errors.Join(err, s.plans.end(rec.ID, planOutcome{Ended: c.now, Outcome: "partly applied"}))
	case code == exitcode.Usage:
		// Refused before anything was sent (the store changed since the
		// plan): this plan can never be applied as shown.
		err = errors.Join(err, s.plans.end(rec.ID, planOutcome{Ended: c.now, Outcome: "refused", Message: err.Error()}))
	default:
		return nil, exitcode.WithHint(exitcode.Of(err), err,
			"call comingsoon_apply again with the same plan_id: it continues from its journal and never creates a rule twice")
	}
	if err != nil {
		return nil, err
	}
	lines := items(ans)
	r := &result{Profile: c.profile}
	r.fromStore("store", writesOf(lines), c.now)
	r.Freshness = "applied just now"
	data, _ := json.Marshal(struct {
		PlanID  string `json:"plan_id"`
		Outcome string `json:"outcome"`
		Resumed bool   `json:"resumed"`
	}{rec.ID, "applied", resume})
	r.Data = data
	for _, item := range lines {
		cleaned, err := s.clean.item(item)
		if err != nil {
			return nil, err
		}
		r.Items = append(r.Items, cleaned)
	}
	r.Returned = len(r.Items)
	r.Total = &r.Returned
	return r, nil
}

// writesOf counts the writes an apply's lines show: a create each, and a
// delete request per batch of at most 100 deleted rules.
func writesOf(lines []json.RawMessage) int {
	creates, deletes := 0, 0
	for _, raw := range lines {
		var l struct {
			Action  string `json:"action"`
			Outcome string `json:"outcome"`
		}
		if json.Unmarshal(raw, &l) != nil {
			continue
		}
		switch {
		case l.Outcome == "created" || (l.Outcome == "failed" && l.Action != "delete"):
			creates++
		case l.Outcome == "deleted" || l.Outcome == "replaced":
			deletes++
		}
	}
	return creates + (deletes+99)/100
}
