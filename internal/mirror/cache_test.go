package mirror

import (
	"context"
	"path/filepath"
	"testing"
)

// CacheKiB bounds the connection's page cache, for a writer and a
// reader; 0 leaves SQLite's own.
func TestCacheKiB(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	for _, c := range []struct {
		mode  Mode
		cache int
		want  int
	}{{Write, 256, -256}, {ReadOnly, 64, -64}, {Write, 0, -2000}} {
		db, err := Open(ctx, path, Options{Mode: c.mode, Store: "https://shop.example.com", CacheKiB: c.cache})
		if err != nil {
			t.Fatal(err)
		}
		var got int
		if err := db.sql.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("mode %v, CacheKiB %d: cache_size %d, want %d", c.mode, c.cache, got, c.want)
		}
		db.Close()
	}
}
