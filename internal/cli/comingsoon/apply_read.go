package comingsoon

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bulk"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/output"
	"github.com/storectl/storectl/internal/ruleform"
)

// fileRules are the rules of an apply file, every row checked.
type fileRules struct {
	wanted  []ruleform.Wanted
	planned map[int]plannedRule // by row: what a create sends
	rows    int
	// localZone names the zone dates without one were read in, when some
	// were ("" when every date had its zone).
	localZone string
}

// readFileRules checks every row as create --from-file does, and that no
// name appears twice: apply knows a rule by its name. A row without a
// start date passes, since the store may hold such a rule (a listing
// lists it); only creating it is refused (uncreatable).
func readFileRules(in *bulk.Input, loc *time.Location) (*fileRules, error) {
	f := &fileRules{planned: map[int]plannedRule{}}
	rowOf := map[string]int{}
	total, err := bulk.Check(in, "rules", ruleFileHint, func(rec bulk.Record) ([]string, error) {
		pr, problems := rowRule(rec, in, loc, true)
		if len(problems) > 0 {
			return problems, nil
		}
		name := pr.rule.Request.Name
		if first, seen := rowOf[name]; seen {
			return []string{fmt.Sprintf("the name %q is row %d's too: apply knows a rule by its name, so each name may appear once", name, first)}, nil
		}
		rowOf[name] = rec.Row
		f.wanted = append(f.wanted, ruleform.Wanted{Row: rec.Row, Rule: pr.rule})
		f.planned[rec.Row] = pr
		if pr.rule.LocalDates {
			f.localZone = output.ZoneName(loc, pr.rule.Start)
		}
		return nil, nil
	})
	f.rows = total
	return f, err
}

// readStore reads every rule in the store, then the detail of each rule
// whose translations decide whether it is unchanged. A rule deleted
// between the two reads is left out.
func readStore(ctx context.Context, client *shop.Client, progress *output.Progress, want []ruleform.Wanted) ([]ruleform.Stored, error) {
	var store []ruleform.Stored
	err := shop.EachPage(ctx, client.ListRules, func(p *shop.Page) error {
		progress.Update(fmt.Sprintf("reading the rule list: page %d of %d", p.Pagination.CurrentPage.Value, max(p.Pagination.LastPage.Value, 1)))
		rules, err := shop.DecodeItems(p, shop.DecodeRule)
		if err != nil {
			return err
		}
		for _, r := range rules {
			store = append(store, ruleform.Stored{Rule: r})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return readDetails(ctx, client, progress, store, ruleform.NeedDetail(want, store))
}

// readDetails puts the detail of each rule in need in the store's place.
func readDetails(ctx context.Context, client *shop.Client, progress *output.Progress, store []ruleform.Stored, need []string) ([]ruleform.Stored, error) {
	at := make(map[string]int, len(store))
	for i, s := range store {
		at[string(s.ID)] = i
	}
	if d := client.PaceLeft(len(need)); d >= time.Minute {
		// A log must say why a nightly job sits idle.
		progress.Say(fmt.Sprintf("reading the translations of %d rules named in the file; at the shop API's rate limit that takes at least %s", len(need), d.Round(time.Second)))
	}
	start := time.Now()
	var gone []string
	for i, id := range need {
		progress.Update("reading rule details " + output.FormatETA(i, len(need), time.Since(start), client.PaceLeft(len(need)-i)))
		res, err := client.GetRule(ctx, id)
		if refusal, ok := cmdutil.RefusalOf(err); ok && refusal.Status == http.StatusNotFound {
			gone = append(gone, id)
			continue
		}
		if err != nil {
			return nil, err
		}
		detail := res.Rule
		detail.ID = store[at[id]].ID // the rule asked for, whatever the answer calls it
		store[at[id]] = ruleform.Stored{Rule: detail, Detailed: true}
	}
	return slices.DeleteFunc(store, func(s ruleform.Stored) bool { return slices.Contains(gone, string(s.ID)) }), nil
}

// uncreatable refuses, before anything is sent, a plan that creates a rule
// the server would refuse: a row without a start date that no rule of the
// store equals.
func uncreatable(plan ruleform.Plan, fileName string) error {
	var problems bulk.ProblemList
	for _, step := range plan.Steps {
		if step.Action != ruleform.Create && step.Action != ruleform.Replace {
			continue
		}
		if p := step.Want.Creatable(); p != nil {
			problems.Add(fmt.Sprintf("row %d (%q)", step.Row, step.Name), p.Message)
		}
	}
	if problems.Bad == 0 {
		return nil
	}
	what := "1 row has no start date, and no rule of the store equals it, so apply would create it"
	if problems.Bad > 1 {
		what = fmt.Sprintf("%d rows have no start date, and no rule of the store equals them, so apply would create them", problems.Bad)
	}
	more := ""
	if n := problems.Problems - len(problems.Lines); n > 0 {
		more = fmt.Sprintf("\n  … and %d more", n)
	}
	return exitcode.UsageHint(fmt.Errorf("%s: %s; nothing was sent:\n  %s%s", fileName, what, strings.Join(problems.Lines, "\n  "), more),
		"give such rows a start date: a row without one matches only a rule the store holds without one, and is never created")
}
