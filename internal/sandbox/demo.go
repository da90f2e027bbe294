package sandbox

import (
	"embed"
	"encoding/json"
	"fmt"
)

// demoFiles are the demo store's hand-made data, in State's file form:
// the back-in-stock form, the pre-order offers with their manual
// assignments, and the coming-soon rules (every apply_to kind, countdown
// on, off and unset, both statuses, translations in several languages or
// none, one rule without a start date, more than one page). They name
// products, variants and collections of the demo catalog by id;
// TestDemoDataMatchesTheCatalog checks that those exist. The submissions
// are generated (demoSubmissions), as many as a benchmark asks for.
//
//go:embed demo/*.json
var demoFiles embed.FS

// DemoState returns the sandbox's deterministic demo data: the back-in-stock
// form, a few hundred submissions, the pre-order offers and the coming-soon
// rules, all over the demo catalog's products.
func DemoState() *State {
	return DemoStateWithSubmissions(demoSubmissionCount)
}

// DemoStateWithSubmissions is DemoState with n submissions (benchmarks use
// 100,000).
func DemoStateWithSubmissions(n int) *State {
	st := &State{Version: stateVersion, Submissions: demoSubmissions(demoCatalog(), n),
		NextSubmissionID: int64(demoFirstSubmission + max(0, n))}
	for name, into := range map[string]any{"form": &st.Form, "offers": &st.Offers, "manual_assignments": &st.ManualAssignments, "rules": &st.Rules} {
		if err := readDemoFile(name, into); err != nil {
			panic(err) // the files are part of the binary: a test reads them all
		}
	}
	st.NextRuleID = int64(len(st.Rules) + 1)
	return st
}

func readDemoFile(name string, into any) error {
	data, err := demoFiles.ReadFile("demo/" + name + ".json")
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, into); err != nil {
		return fmt.Errorf("sandbox demo/%s.json: %w", name, err)
	}
	return nil
}
