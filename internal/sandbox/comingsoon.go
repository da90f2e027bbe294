package sandbox

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
)

// Coming-soon messages. The spec gives the delete failures' texts; the rest
// are the sandbox's choice.
const (
	msgRuleCreated      = "Coming soon product created successfully"
	msgRuleNotFound     = "Coming soon product not found"
	msgRulesDeleted     = "Coming soon products deleted successfully"
	msgRulesNotFound    = "Coming soon products not found"
	msgIDsFieldRequired = "The ids field is required"
	msgTooManyIDs       = "The ids may not have more than 100 items."
)

// maxDeleteIDs is the most ids one delete request takes.
const maxDeleteIDs = 100

// failingDeleteID is a magic id: a delete request listing it fails with the
// spec's unexpected-failure message and deletes nothing, so clients can
// exercise a failed batch.
const failingDeleteID = 500500

func (s *Server) ruleCreate(w http.ResponseWriter, r *http.Request, _ string) {
	raw, ok := readBody(w, r)
	if !ok {
		return
	}
	body, _ := parseObject(raw)
	in, errs := validateRule(body)
	if errs != nil {
		writeError(w, errs.response())
		return
	}
	var rule Rule
	err := s.store.Update(func(st *State) error {
		now := s.now().UTC()
		rule = Rule{
			ID:              st.takeRuleID(),
			Name:            in.name,
			StartDate:       &in.start,
			EndDate:         in.end,
			ShowCountdown:   in.showCountdown,
			ApplyTo:         in.applyTo,
			ProductIDs:      in.productIDs,
			VariantIDs:      in.variantIDs,
			CollectionID:    in.collectionID,
			Translations:    in.translations,
			TranslationsSet: in.translationsSet,
			Status:          in.status,
			CreatedAt:       now,
			UpdatedAt:       now,
		}
		st.Rules = append(st.Rules, rule)
		return nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, object{
		{"success", true},
		{"message", msgRuleCreated},
		{"data", ruleCreatedObject(rule)},
	})
}

func (s *Server) ruleList(w http.ResponseWriter, r *http.Request, _ string) {
	writeNewestFirst(s, w, r, rulePageSize, func(st *State) []Rule { return st.Rules },
		func(rule Rule) object { return ruleObject(rule, false) })
}

func (s *Server) ruleGet(w http.ResponseWriter, _ *http.Request, param string) {
	id, err := strconv.ParseInt(param, 10, 64)
	if err != nil {
		writeFailure(w, http.StatusNotFound, msgRuleNotFound)
		return
	}
	var data object
	err = s.store.View(func(st *State) error {
		i, ok := st.ruleIndex(id)
		if !ok {
			return failure(http.StatusNotFound, msgRuleNotFound)
		}
		data = ruleObject(st.Rules[i], true)
		return nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, object{{"success", true}, {"data", data}})
}

func (s *Server) ruleDelete(w http.ResponseWriter, r *http.Request, _ string) {
	raw, ok := readBody(w, r)
	if !ok {
		return
	}
	body, _ := parseObject(raw)
	idsRaw, _ := body.get("ids")
	var items []json.RawMessage
	if kind(idsRaw) != "array" || json.Unmarshal(idsRaw, &items) != nil || len(items) == 0 {
		writeFailure(w, http.StatusUnprocessableEntity, msgIDsFieldRequired)
		return
	}
	if len(items) > maxDeleteIDs {
		writeFailure(w, http.StatusUnprocessableEntity, msgTooManyIDs)
		return
	}
	ids := make(map[int64]bool, len(items))
	for _, item := range items {
		// Items that are not integers match no rule.
		if id, ok := intValue(item); ok {
			ids[id] = true
		}
	}
	if ids[failingDeleteID] {
		writeFailure(w, http.StatusInternalServerError, msgSomethingWrong)
		return
	}
	err := s.store.Update(func(st *State) error {
		kept := st.Rules[:0:0]
		for _, rule := range st.Rules {
			if !ids[rule.ID] {
				kept = append(kept, rule)
			}
		}
		if len(kept) == len(st.Rules) {
			return failure(http.StatusNotFound, msgRulesNotFound)
		}
		st.Rules = kept
		return nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, object{{"success", true}, {"message", msgRulesDeleted}})
}

// ruleObject is a rule as list (without translations) and detail show it:
// status as a boolean, dates in ISO 8601.
func ruleObject(rule Rule, withTranslations bool) object {
	obj := object{
		{"id", rule.ID},
		{"name", rule.Name},
		{"start_date", isoTimePtr(rule.StartDate)},
		{"end_date", isoTimePtr(rule.EndDate)},
		{"show_countdown", rule.ShowCountdown},
		{"apply_to", rule.ApplyTo},
		{"product_ids", rule.ProductIDs},
		{"variant_ids", rule.VariantIDs},
		{"collection_id", rule.CollectionID},
	}
	if withTranslations {
		obj = append(obj, field{"translations", translationsObject(rule)})
	}
	return append(obj,
		field{"status", rule.Status == 1},
		field{"created_at", isoTime(rule.CreatedAt)},
		field{"updated_at", isoTime(rule.UpdatedAt)},
	)
}

// ruleCreatedObject is a rule as the create response shows it: status as the
// integer sent, dates as YYYY-MM-DD HH:MM:SS.
func ruleCreatedObject(rule Rule) object {
	obj := ruleObject(rule, true)
	for i := range obj {
		switch obj[i].key {
		case "start_date":
			obj[i].value = sqlTimePtr(rule.StartDate)
		case "end_date":
			obj[i].value = sqlTimePtr(rule.EndDate)
		case "status":
			obj[i].value = rule.Status
		}
	}
	return obj
}

func translationsObject(rule Rule) any {
	if !rule.TranslationsSet {
		return nil
	}
	obj := make(object, 0, len(rule.Translations))
	for _, t := range rule.Translations {
		texts := object{}
		for _, text := range []struct {
			key   string
			value *string
		}{{keyAddToCart, t.AddToCartText}, {keyAbove, t.AboveMessage}, {keyBellow, t.BellowMessage}} {
			if text.value != nil {
				texts = append(texts, field{text.key, *text.value})
			}
		}
		obj = append(obj, field{t.Lang, texts})
	}
	return obj
}

// ruleIndex finds a rule by id; rules are kept in id order.
func (st *State) ruleIndex(id int64) (int, bool) {
	return slices.BinarySearchFunc(st.Rules, id, func(rule Rule, id int64) int {
		return cmp.Compare(rule.ID, id)
	})
}

// takeRuleID returns the next rule id and advances it.
func (st *State) takeRuleID() int64 {
	id := st.NextRuleID
	st.NextRuleID++
	return id
}
