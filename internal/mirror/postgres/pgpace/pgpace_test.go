package pgpace_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/storectl/storectl/internal/mirror/postgres"
	"github.com/storectl/storectl/internal/mirror/postgres/pgpace"
	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
	"github.com/storectl/storectl/internal/mirror/postgres/pgurl"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// A token's first two users race to create its row: the one whose INSERT
// waited on the other's must see the window the other committed, not an
// empty one (three machines starting at once sent 429s when it did not).
func TestWindowCommittedByTheRowsCreatorIsSeen(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	target, err := pgurl.Parse(pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := postgres.Migrate(ctx, target, nil); err != nil {
		t.Fatal(err)
	}
	first, err := pgx.ConnectConfig(ctx, target.Config)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close(ctx)
	var secret string
	if err := first.QueryRow(ctx, "SELECT secret FROM storectl.pace_secret").Scan(&secret); err != nil {
		t.Fatal(err)
	}
	const tokenKey = "token-key"
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(tokenKey))
	row := hex.EncodeToString(mac.Sum(nil))

	// The first user has inserted the row and holds it, uncommitted.
	tx, err := first.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO storectl.pace (token_key, state) VALUES ($1, '{"slots":[{"id":1}]}')`, row); err != nil {
		t.Fatal(err)
	}

	second, _ := pgpace.Opener(target)(tokenKey)
	seen := make(chan string, 1)
	go func() {
		err := second.Update(ctx, func(stored []byte) []byte {
			seen <- string(stored)
			return nil
		})
		if err != nil {
			seen <- "error: " + err.Error()
		}
	}()
	watcher, err := pgx.ConnectConfig(ctx, target.Config)
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close(ctx)
	waitForLockWaiter(ctx, t, watcher, seen)
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if got := <-seen; got != `{"slots": [{"id": 1}]}` {
		t.Fatalf("the second user saw %q, not the window the first committed", got)
	}
}

// waitForLockWaiter returns once some session waits on a lock. conn must
// not be in a transaction: pg_stat_activity is read once per transaction.
func waitForLockWaiter(ctx context.Context, t *testing.T, conn *pgx.Conn, seen chan string) {
	t.Helper()
	for {
		var waiting int
		err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`).Scan(&waiting)
		if err != nil {
			t.Fatal(err)
		}
		if waiting > 0 {
			return
		}
		select {
		case got := <-seen:
			t.Fatalf("the second user did not wait: saw %q", got)
		case <-ctx.Done():
			t.Fatal("the second user never waited on the first's row")
		case <-time.After(10 * time.Millisecond):
		}
	}
}
