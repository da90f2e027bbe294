package sandbox

// DemoState returns the sandbox's deterministic demo data: the back-in-stock
// form, a few hundred submissions, the pre-order offers and the coming-soon
// rules, all over the demo catalog's products.
func DemoState() *State {
	return DemoStateWithSubmissions(demoSubmissionCount)
}

// DemoStateWithSubmissions is DemoState with n submissions (benchmarks use
// 100,000).
func DemoStateWithSubmissions(n int) *State {
	cat := demoCatalog()
	offers, manual := demoOffers(cat)
	rules := demoRules(cat)
	return &State{
		Version:           stateVersion,
		Form:              demoForm(),
		Submissions:       demoSubmissions(cat, n),
		Offers:            offers,
		ManualAssignments: manual,
		Rules:             rules,
		NextSubmissionID:  int64(demoFirstSubmission + max(0, n)),
		NextRuleID:        int64(len(rules) + 1),
	}
}
