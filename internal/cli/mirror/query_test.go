package mirror

import (
	"context"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/exitcode"
)

// mirror query streams the rows in the format asked for, and words a
// refused statement with what to do instead.
func TestQueryStreamsAndRefuses(t *testing.T) {
	e := clitest.New(t, clitest.WithOutput("csv"))
	e.Sends("GET /shop-api/back-in-stock/list")
	if err := runSync(context.Background(), &SyncOptions{MirrorDeps: e.F.MirrorDeps(), Groups: []string{"bis"}}); err != nil {
		t.Fatal(err)
	}
	e.Out.Reset()
	q := &QueryOptions{MirrorDeps: e.F.MirrorDeps(), SQL: "SELECT id, status FROM submissions ORDER BY id LIMIT 3;"}
	if err := runQuery(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(e.Out.String()), "\n"); len(lines) != 4 || lines[0] != "id,status" {
		t.Fatalf("%q", e.Out)
	}
	for sql, want := range map[string]string{
		"VACUUM INTO '/tmp/x.db'":               "mirror query only reads: VACUUM is refused",
		"SELECT 1; DELETE FROM submissions":     `holds another: "DELETE FROM submissions" is refused`,
		"SELECT nope FROM submissions":          "mirror query: no such column: nope",
		"ATTACH 'file:/tmp/y.db?mode=rwc' AS y": "ATTACH is refused",
	} {
		q.SQL = sql
		err := runQuery(context.Background(), q)
		clitest.WantExit(t, err, exitcode.Usage)
		if !strings.Contains(err.Error(), want) || exitcode.HintOf(err) == "" {
			t.Errorf("%s: %v (hint %q)", sql, err, exitcode.HintOf(err))
		}
	}
}
