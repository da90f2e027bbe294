package sqlite

// What is SQLite's own about its connections: the pragmas, the file's
// page size, the write-ahead log's checkpoints, the catalog of indexes and
// triggers, and the file's free space.

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// dsn opens the file with WAL (readers never wait for the writer) and
// synchronous=NORMAL: a commit survives the process being killed at any
// instant; only a power cut may take the last commits, which the next sync
// fetches again.
func dsn(path string, readOnly bool, cacheKiB int) string {
	q := connPragmas(readOnly)
	if cacheKiB > 0 {
		q.Add("_pragma", fmt.Sprintf("cache_size(-%d)", cacheKiB))
	}
	if !readOnly {
		q.Add("_pragma", "journal_mode(WAL)")
	}
	return fileURL(path, q)
}

// connPragmas are the pragmas of every connection but the journal mode,
// which a new file gets only once its page size is set (openNew).
func connPragmas(readOnly bool) url.Values {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	if readOnly {
		q.Set("mode", "ro")
		q.Add("_pragma", "query_only(1)")
		// A reader maps the file (the first GiB) instead of copying each
		// page it reads through a system call, where bis report --offline
		// spent a good share of its time. Only SQLite's own
		// writers change the file under a reader, and they never cut what a
		// reader's snapshot may still read; where mapping fails SQLite
		// reads as before.
		q.Add("_pragma", "mmap_size("+readerMapSize+")")
	} else {
		q.Add("_pragma", "synchronous(NORMAL)")
		q.Add("_pragma", fmt.Sprintf("wal_autocheckpoint(%d)", walCheckpointPages))
	}
	return q
}

// readerMapSize is how much of the file a reader maps: the first GiB.
const readerMapSize = "1073741824"

// unmappedReads runs fn on a read-only connection that reads pages with
// read(2) into a cache of 16 pages instead of mapping the file. Two kinds
// of answer want that:
//   - bis find reads rows one by one from pages scattered across the file
//     (a customer's submissions arrive months apart). A process touching a
//     mapped page in a 2 MiB stretch of the file it had not touched pays a
//     fault and a new page table, both fresh memory, once per row; pages
//     read into a small cache reuse the same memory, which makes such
//     answers markedly faster (docs/benchmarks.md, reads).
//   - bis export --offline reads every row once. Every mapped page it
//     touched would stay in the process's resident memory until it ends, so
//     its peak RSS grew with the store; read into a small cache it stays
//     flat.
//
// Answers that read neighbouring pages again and again (bis demand's tally,
// bis report's scan) keep the map, which serves them better. The
// connection gets its settings back after.
func (c *conn) UnmappedReads(ctx context.Context, fn func(backend.Querier) error) error {
	if !c.readOnly {
		return fn(c.sql)
	}
	conn, err := c.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var cacheSize int
	if err := conn.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&cacheSize); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "PRAGMA mmap_size = 0; PRAGMA cache_size = -128"); err != nil {
		return err
	}
	err = fn(conn)
	// The connection's own settings back, on a context not cancelled, else
	// the pool would keep a connection without them; failing that, the
	// connection is not put back in the pool.
	reset := fmt.Sprintf("PRAGMA cache_size = %d; PRAGMA mmap_size = %s", cacheSize, readerMapSize)
	if _, resetErr := conn.ExecContext(context.Background(), reset); resetErr != nil {
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		return errors.Join(err, resetErr)
	}
	return err
}

func fileURL(path string, q url.Values) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path), RawQuery: q.Encode()}
	if !strings.HasPrefix(u.Path, "/") { // a Windows path: file:///C:/…
		u.Path = "/" + u.Path
	}
	return u.String()
}

// newFilePageSize is the page size of a mirror created from now on: 8 KiB
// where SQLite's default is 4: a first sync's writes and its index builds
// take less CPU with it than with 4 KiB or 16 KiB pages. A mirror made
// before keeps its 4 KiB pages.
const newFilePageSize = 8192

// openNew opens the new, empty file at path for its migration. The page
// size must be set before the write-ahead log is switched on, which
// writes the file's header and fixes it (the driver runs a DSN's pragmas
// sorted by name, so they cannot say that order).
func openNew(ctx context.Context, path string) (*sql.DB, error) {
	conn, err := sql.Open("sqlite", fileURL(path, connPragmas(false)))
	if err != nil {
		return nil, err
	}
	conn.SetMaxOpenConns(1) // both pragmas on the one connection
	for _, q := range []string{fmt.Sprintf("PRAGMA page_size = %d", newFilePageSize), "PRAGMA journal_mode = WAL"} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			conn.Close()
			return nil, err
		}
	}
	return conn, nil
}

// walCheckpointPages is how many pages the write-ahead log may hold before
// a commit copies them into the database (two fsyncs), where SQLite's
// default of 1,000 checkpointed every few pages of a full pass. The log is truncated when a pass ends (checkpoint).
const walCheckpointPages = 8192

// checkpoint copies the write-ahead log into the database and empties it,
// so that a finished pass leaves no large log beside the file. A reader
// in the middle of a query may keep it from finishing: the next one will.
func checkpoint(ctx context.Context, db *sql.DB) {
	_, _ = db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
}

// schemaObject is an index or trigger of a table, with the SQL that
// makes it.
type schemaObject struct {
	kind, name, sql string
}

// tableObjects lists the indexes and triggers of table that can be dropped
// and made again (not those its constraints make), indexes first.
func tableObjects(ctx context.Context, tx *sql.Tx, table string) ([]schemaObject, error) {
	rows, err := tx.QueryContext(ctx, `SELECT type, name, sql FROM sqlite_master
		WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, name`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []schemaObject
	for rows.Next() {
		var o schemaObject
		if err := rows.Scan(&o.kind, &o.name, &o.sql); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// dropObject drops an index or trigger.
func dropObject(ctx context.Context, tx *sql.Tx, o schemaObject) error {
	_, err := tx.ExecContext(ctx, fmt.Sprintf(`DROP %s IF EXISTS "%s"`, strings.ToUpper(o.kind), o.name))
	return err
}

// Space reads the file's size and page counts.
func (c *conn) Space(ctx context.Context) (backend.Space, error) {
	var s backend.Space
	for _, suffix := range []string{"", "-wal"} {
		if info, err := os.Stat(c.path + suffix); err == nil {
			s.Size += info.Size()
		}
	}
	var pageSize, pages, free int64
	for _, p := range []struct {
		q string
		v *int64
	}{{"PRAGMA page_size", &pageSize}, {"PRAGMA page_count", &pages}, {"PRAGMA freelist_count", &free}} {
		if err := c.sql.QueryRowContext(ctx, p.q).Scan(p.v); err != nil {
			return s, err
		}
	}
	s.File, s.Free = pages*pageSize, free*pageSize
	return s, nil
}

// Vacuum rewrites the file without its free pages, every page packed
// full, and says its size before and after. It needs the mirror opened to
// write (one writer at a time), and room for a copy of the file beside it.
func (c *conn) Vacuum(ctx context.Context) (before, after backend.Space, err error) {
	if before, err = c.Space(ctx); err != nil {
		return before, after, err
	}
	if _, err := c.sql.ExecContext(ctx, "VACUUM"); err != nil {
		return before, after, err
	}
	checkpoint(ctx, c.sql)
	after, err = c.Space(ctx)
	return before, after, err
}

// Columns are the columns of table, none when the file has no such table
// (mirror copy reads what both sides have).
func (c *conn) Columns(ctx context.Context, table string) ([]string, error) {
	rows, err := c.sql.QueryContext(ctx, "SELECT name FROM pragma_table_info(?)", table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		out = append(out, name)
	}
	return out, rows.Err()
}
