package comingsoon

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/api/flex"
	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/output"
)

// clockSkew is how far the server's clock may run behind this machine's
// and still have a rule count as created by a request sent at a given time.
const clockSkew = 10 * time.Minute

// recoverer finds rules an interrupted run created without recording them:
// the report's last line for such a row is "pending", written just before
// its request. A rule matches when it has the row's name, apply_to and
// start, was created no earlier than the request was sent (less the
// clock skew), and no other row claimed it.
type recoverer struct {
	client   *shop.Client
	progress *output.Progress
	rules    []shop.Rule
	loaded   bool
	oldest   time.Time // rules created before this are not loaded; zero: all
	claimed  map[flex.ID]bool
}

func (r *recoverer) find(ctx context.Context, pr plannedRule, sent time.Time) (flex.ID, bool, error) {
	cutoff := time.Time{}
	if !sent.IsZero() {
		cutoff = sent.Add(-clockSkew)
	}
	if err := r.load(ctx, cutoff); err != nil {
		return "", false, err
	}
	want := pr.rule.Request
	// Oldest first: the first unclaimed match is the one this row created.
	for i := len(r.rules) - 1; i >= 0; i-- {
		rule := r.rules[i]
		if r.claimed[rule.ID] || strings.TrimSpace(rule.Name) != want.Name || rule.ApplyTo != want.ApplyTo {
			continue
		}
		start, err := time.Parse(time.RFC3339Nano, rule.StartDate)
		if err != nil || !start.Truncate(time.Second).Equal(pr.rule.Start.Truncate(time.Second)) {
			continue
		}
		if created, err := time.Parse(time.RFC3339Nano, rule.CreatedAt); err == nil && !cutoff.IsZero() && created.Before(cutoff) {
			continue
		}
		r.claim(rule.ID)
		return rule.ID, true, nil
	}
	return "", false, nil
}

// claim marks a rule as some row's, so that no other row takes it.
func (r *recoverer) claim(id flex.ID) {
	if r.claimed == nil {
		r.claimed = map[flex.ID]bool{}
	}
	r.claimed[id] = true
}

// errOldEnough stops paging once the list (newest first) reaches rules
// created before the cutoff.
var errOldEnough = errors.New("older rules not needed")

// load fetches the rule list once, newest first, down to the cutoff (all of
// it for a zero cutoff). A later, earlier cutoff fetches again.
func (r *recoverer) load(ctx context.Context, cutoff time.Time) error {
	if r.loaded && (r.oldest.IsZero() || (!cutoff.IsZero() && !cutoff.Before(r.oldest))) {
		return nil
	}
	r.progress.Update("checking the rule list for rules an interrupted run created")
	var rules []shop.Rule
	err := shop.EachPage(ctx, r.client.ListRules, func(p *shop.Page) error {
		for _, item := range p.Items {
			rule, err := shop.DecodeRule(item)
			if err != nil {
				return err
			}
			rules = append(rules, rule)
			created, err := time.Parse(time.RFC3339Nano, rule.CreatedAt)
			if !cutoff.IsZero() && err == nil && created.Before(cutoff) {
				return errOldEnough
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errOldEnough) {
		return err
	}
	r.rules, r.loaded, r.oldest = rules, true, cutoff
	return nil
}
