package sqlite

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// The rows a part keeps that exist nowhere else are counted on a
// connection of their own: a table the file lacks counts none, and a
// file that is not there cannot be counted (-1: the verdict does not say
// it holds nothing).
func TestCountUndelivered(t *testing.T) {
	path := filepath.Join(t.TempDir(), "default.db")
	conn, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(`CREATE TABLE outbox (id TEXT PRIMARY KEY, state TEXT NOT NULL);
		INSERT INTO outbox VALUES ('evt_1', 'pending'), ('evt_2', 'parked'), ('evt_3', 'delivered')`); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	parts := []backend.Part{
		{Name: "watch", Unrecoverable: "SELECT count(*) FROM outbox WHERE state <> 'delivered'"},
		{Name: "later", Unrecoverable: "SELECT count(*) FROM not_yet_made"},
		{Name: "report"},
	}
	if n := countUndelivered(path, parts); n != 2 {
		t.Fatalf("%d undelivered, want 2", n)
	}
	if n := countUndelivered(filepath.Join(t.TempDir(), "none.db"), parts); n != -1 {
		t.Fatalf("%d undelivered in no file, want -1 (unknown)", n)
	}
}
