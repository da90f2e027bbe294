package mirror

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"testing"
	"unicode/utf8"
)

// notUTF8 are bytes no UTF-8 text holds: two runs, around a valid "x".
const notUTF8 = "\xff\xfe\xed\xa0\x80x\xc3"

// notUTF8Details makes every detail answer and the form's labels hostile,
// the lists' answers not: what is named is what was sent so, and only it.
func notUTF8Details(body []byte) []byte {
	if bytes.Contains(body, []byte(`"data":{`)) {
		body = hostileFields.ReplaceAll(body, []byte(`"$1":"`+notUTF8))
	}
	return formLabels.ReplaceAll(body, []byte(`"label":"`+notUTF8))
}

var formLabels = regexp.MustCompile(`"label":"`)

// A detail or a form field sent with bytes that are not UTF-8 is kept
// with U+FFFD for each run of them, as a list item is, and named by its
// id in the pass's result: each detail the submissions' refresh or the
// rules' and offers' details fetched, each field of the form. One not
// fetched again is not named again.
func TestDetailsNotUTF8AreNamed(t *testing.T) {
	w := newWorld(t, 8)
	w.after = notUTF8Details
	res := w.sync(SyncOptions{Full: true, Details: true}, "bis", "preorder", "comingsoon")
	detailed := 0
	for _, r := range res {
		if len(r.Repaired) != 0 {
			t.Errorf("%s: list items named %q, but none was sent so", r.Resource, r.Repaired)
		}
		if len(r.Details.Repaired) != r.Details.Fetched {
			t.Errorf("%s: %d details fetched, %q named: want every one", r.Resource, r.Details.Fetched, r.Details.Repaired)
		}
		detailed += len(r.Details.Repaired)
	}
	if named := slices.Sorted(slices.Values(res[0].Details.Repaired)); !slices.Equal(named, w.submissionIDs()) {
		t.Fatalf("the refresh named %q: want the 8 submissions", named)
	}
	if detailed == 8 {
		t.Fatal("no rule nor offer detail was fetched: the test tests nothing of them")
	}
	fields := w.count("SELECT count(*) FROM form_fields WHERE label LIKE $1", "%\uFFFDx\uFFFD%")
	if len(res[0].FormRepaired) == 0 || len(res[0].FormRepaired) != fields {
		t.Fatalf("form fields named %q, %d kept with U+FFFD", res[0].FormRepaired, fields)
	}
	if n := w.count("SELECT count(*) FROM submissions WHERE detail_json LIKE $1", "%\uFFFDx\uFFFD%"); n != 8 {
		t.Fatalf("%d details kept with U+FFFD, want 8", n)
	}
	for _, r := range w.sync(SyncOptions{Details: true}, "bis", "preorder", "comingsoon") {
		if len(r.Details.Repaired) != r.Details.Fetched || len(r.FormRepaired) != 0 {
			t.Errorf("%s, again: %d details fetched, details named %q, form fields %q", r.Resource, r.Details.Fetched, r.Details.Repaired, r.FormRepaired)
		}
	}
}

// submissionIDs are the mirrored submissions' ids, in order (decimal,
// of one width in the sandbox).
func (w *world) submissionIDs() []string {
	w.t.Helper()
	rows, err := w.db.sql().Query("SELECT id FROM submissions ORDER BY id")
	if err != nil {
		w.t.Fatal(err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			w.t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// An online export writes and names, as the mirror keeps them, the rows
// whose list item or whose detail fetched now was not UTF-8; a detail
// the mirror held already is written as held, and not named again.
func TestExportNamesRowsNotUTF8(t *testing.T) {
	w := newWorld(t, 6)
	w.after = notUTF8Details
	out, res, err := w.export(ExportOptions{Details: true})
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.ValidString(out) || len(res.Repaired) != 6 || res.DetailsFetched != 6 {
		t.Fatalf("valid UTF-8: %v; %d details fetched; named %q: want the 6", utf8.ValidString(out), res.DetailsFetched, res.Repaired)
	}
	offline := exportedOffline(t, w)
	if out != offline {
		t.Fatalf("the export wrote\n%s\nthe mirror holds\n%s", out, offline)
	}
	out, res, err = w.export(ExportOptions{Details: true})
	if err != nil || out != offline || len(res.Repaired) != 0 || res.DetailsKept != 6 {
		t.Fatalf("again: %v, named %q, %d details kept; wrote\n%s", err, res.Repaired, res.DetailsKept, out)
	}
}

// exportedOffline is what the mirror holds of the submissions with their
// details, a line each, as the offline export writes them.
func exportedOffline(t *testing.T, w *world) string {
	t.Helper()
	var b bytes.Buffer
	if _, _, err := w.db.EachSubmission(t.Context(), true, func(raw json.RawMessage) error {
		b.Write(raw)
		b.WriteByte('\n')
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
