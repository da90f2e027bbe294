package bis

import (
	"context"
	"strings"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bisform"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
)

// submitter sends create requests built from the cached form, and copes
// with the cache being stale.
type submitter struct {
	client *shop.Client
	forms  *formStore
	form   *loadedForm
}

// send posts req, built from in with s.form. When the server refuses it
// with a form validation message although the local check passed (a
// validation mismatch: the merchant edited the form since it was cached),
// the form is fetched again, once per run; if it changed, in is rebuilt and
// sent again, or fails locally with the new form's message.
func (s *submitter) send(ctx context.Context, in bisform.Input, req *shop.BISCreateRequest) (*shop.SubmissionResult, error) {
	res, err := s.client.CreateSubmission(ctx, req)
	if err == nil || !formMismatch(err) {
		return res, err
	}
	fresh, changed, ferr := s.forms.Refetch(ctx, s.form)
	if ferr != nil || !changed {
		return nil, err
	}
	s.form = fresh
	req, berr := fresh.Form.Build(in)
	if berr != nil {
		failure := localFailure(berr)
		return nil, exitcode.UsageHint(failure,
			"the store's form changed since it was cached (now refreshed): "+exitcode.HintOf(failure))
	}
	return s.client.CreateSubmission(ctx, req)
}

// formMismatch reports a refusal that only a different form explains.
func formMismatch(err error) bool {
	refusal, ok := cmdutil.RefusalOf(err)
	if !ok {
		return false
	}
	m := refusal.Message
	return (strings.HasPrefix(m, `Field "`) && strings.HasSuffix(m, "is required.")) ||
		strings.HasPrefix(m, `Invalid value for field "`)
}
