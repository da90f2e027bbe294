package backend

import (
	"slices"
	"testing"
)

func TestSplitStatements(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want []string
	}{
		{"SELECT 1", []string{"SELECT 1"}},
		{" SELECT 1 ; ", []string{"SELECT 1"}},
		{"SELECT ';'; SELECT 2", []string{"SELECT ';'", "SELECT 2"}},
		{`SELECT "a;b", [c;d], ` + "`e;f`" + ` FROM t`, []string{`SELECT "a;b", [c;d], ` + "`e;f`" + ` FROM t`}},
		{"SELECT 'it''s;' -- x;\n; /* ; */", []string{"SELECT 'it''s;' -- x;"}},
		{"-- only\n/* comments */", nil},
		{"SELECT 1 /* unterminated ;", []string{"SELECT 1 /* unterminated ;"}},
	} {
		if got := splitStatements(tc.sql); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.sql, got, tc.want)
		}
	}
}
