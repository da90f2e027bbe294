package sandbox

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// msgSubmissionNotFound answers a detail request for an unknown submission;
// the spec does not show this failure.
const msgSubmissionNotFound = "Submission not found"

func (s *Server) bisForm(w http.ResponseWriter, _ *http.Request, _ string) {
	var data []object
	err := s.store.View(func(st *State) error {
		data = make([]object, 0, len(st.Form))
		for _, f := range st.Form {
			data = append(data, formFieldObject(f))
		}
		return nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, object{{"success", true}, {"data", data}})
}

// formFieldObject is a form field as the API shows it: a hidden field's
// value is never exposed.
func formFieldObject(f FormField) object {
	var options any
	if f.Options != nil {
		options = f.Options
	}
	return object{
		{"id", f.ID},
		{"label", f.Label},
		{"placeholder", f.Placeholder},
		{"type", f.Type},
		{"required", f.Required},
		{"hidden", f.Hidden},
		{"options", options},
		{"defaultValue", f.DefaultValue},
	}
}

// bisCreate registers a customer for a variant. Every failure is HTTP 200
// with success false (rule 7).
func (s *Server) bisCreate(w http.ResponseWriter, r *http.Request, _ string) {
	raw, ok := readBody(w, r)
	if !ok {
		return
	}
	// A body that is not a JSON object reads as an empty one, as Laravel
	// reads unparsable JSON input.
	body, _ := parseObject(raw)
	var message string
	var saved Submission
	err := s.store.Update(func(st *State) error {
		in, msg := validateSubmission(st.Form, s.catalog, body)
		if msg != "" {
			return failure(http.StatusOK, msg)
		}
		switch email := strings.ToLower(in.email); {
		case strings.HasSuffix(email, alreadyRegisteredDomain):
			return failure(http.StatusOK, msgAlreadyRegistered)
		case strings.HasSuffix(email, failDomain):
			return failure(http.StatusOK, msgSomethingWrong)
		}
		saved, message = upsertSubmission(st, in, s.now())
		saved = saved.AsOf(s.now())
		return nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, object{
		{"success", true},
		{"message", message},
		{"data", submissionObject(saved)},
	})
}

// upsertSubmission stores a new submission, or updates the customer's
// existing one for the variant with the optional values sent.
func upsertSubmission(st *State, in *submissionInput, now time.Time) (Submission, string) {
	now = now.UTC()
	for i := range st.Submissions {
		sub := &st.Submissions[i]
		if sub.VariantID != in.variant.ID || !strings.EqualFold(sub.CustomerEmail, in.email) {
			continue
		}
		if in.phone != nil {
			sub.CustomerPhone = in.phone
		}
		if in.locale != nil {
			sub.Locale = *in.locale
		}
		if in.note != nil {
			sub.Note = in.note
		}
		if in.content != nil {
			sub.Content = in.content
		}
		sub.UpdatedAt = now
		return *sub, msgSubmissionUpdated
	}
	sub := Submission{
		ID:            st.takeSubmissionID(),
		ProductID:     in.product.ID,
		VariantID:     in.variant.ID,
		CustomerEmail: in.email,
		CustomerPhone: in.phone,
		ProductTitle:  in.product.Title,
		VariantTitle:  in.variant.Title,
		SKU:           nonEmpty(in.variant.SKU),
		InventoryID:   strconv.FormatInt(in.variant.InventoryItemID, 10),
		Locale:        "default",
		Content:       in.content,
		Note:          in.note,
		CreatedAt:     now,
		UpdatedAt:     now,
	}
	if in.locale != nil {
		sub.Locale = *in.locale
	}
	st.Submissions = append(st.Submissions, sub)
	return sub, msgSubmissionCreated
}

func (s *Server) bisList(w http.ResponseWriter, r *http.Request, _ string) {
	now := s.now()
	writeNewestFirst(s, w, r, submissionPageSize, func(st *State) []Submission { return st.Submissions },
		func(sub Submission) object { return submissionListItem(sub.AsOf(now)) })
}

func (s *Server) bisGet(w http.ResponseWriter, _ *http.Request, param string) {
	id, err := strconv.ParseInt(param, 10, 64)
	if err != nil {
		writeFailure(w, http.StatusNotFound, msgSubmissionNotFound)
		return
	}
	var found *Submission
	err = s.store.View(func(st *State) error {
		i, ok := slices.BinarySearchFunc(st.Submissions, id, func(sub Submission, id int64) int {
			return cmp.Compare(sub.ID, id)
		})
		if !ok {
			return failure(http.StatusNotFound, msgSubmissionNotFound)
		}
		sub := st.Submissions[i].AsOf(s.now())
		found = &sub
		return nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, object{{"success", true}, {"message", ""}, {"data", submissionObject(*found)}})
}

// submissionObject is the create and detail form of a submission.
func submissionObject(sub Submission) object {
	return object{
		{"id", sub.ID},
		{"product_id", sub.ProductID},
		{"variant_id", sub.VariantID},
		{"customer_email", sub.CustomerEmail},
		{"customer_phone", sub.CustomerPhone},
		{"product_title", sub.ProductTitle},
		{"variant_title", sub.VariantTitle},
		{"sku", sub.SKU},
		{"inventory_id", sub.InventoryID},
		{"status", sub.Status},
		{"last_sent", isoTimePtr(sub.LastSent)},
		{"unsubscribe", sub.Unsubscribe},
		{"content", sub.Content},
		{"locale", sub.Locale},
		{"opened", zeroOrTime(sub.Opened)},
		{"clicked", zeroOrTime(sub.Clicked)},
		{"note", sub.Note},
		{"created_at", isoTime(sub.CreatedAt)},
		{"updated_at", isoTime(sub.UpdatedAt)},
	}
}

// submissionListItem is the list form of a submission.
func submissionListItem(sub Submission) object {
	return object{
		{"id", sub.ID},
		{"product_id", sub.ProductID},
		{"variant_id", sub.VariantID},
		{"customer_email", sub.CustomerEmail},
		{"customer_phone", sub.CustomerPhone},
		{"product_title", sub.ProductTitle},
		{"variant_title", sub.VariantTitle},
		{"sku", sub.SKU},
		{"status", sub.Status},
		{"created_at", isoTime(sub.CreatedAt)},
		{"updated_at", isoTime(sub.UpdatedAt)},
	}
}

// zeroOrTime is the API's opened/clicked value: the number 0, or the time.
func zeroOrTime(t string) any {
	if t == "" {
		return 0
	}
	return t
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// takeSubmissionID returns the next submission id and advances it.
func (st *State) takeSubmissionID() int64 {
	id := st.NextSubmissionID
	st.NextSubmissionID++
	return id
}
