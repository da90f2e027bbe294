package mirror

// What is SQLite's own, kept here: the connection's pragmas, how a list of
// ids is passed as one argument, the catalog of indexes and triggers, the
// write-ahead log's checkpoints, and the file's free space. A mirror on
// another database (PostgreSQL) would give its own forms of these; the rest
// of the package writes SQL both understand, except the migrations, the
// triggers they create, and mirror query's guard (readonly.go).

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
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
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	if readOnly {
		q.Set("mode", "ro")
		q.Add("_pragma", "query_only(1)")
		// A reader maps the file (the first GiB) instead of copying each
		// page it reads through a system call: bis report --offline at
		// 100,000 rows spent a tenth of its time there. Only SQLite's own
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
//     read into a small cache reuse the same memory. Measured at 1,000,000
//     submissions (whole process, release build): find --email (279 rows)
//     61 → 47 ms, find --variant-id (2,979) 172 → 89 ms.
//   - bis export --offline reads every row once. Every mapped page it
//     touched would stay in the process's resident memory until it ends, so
//     its peak RSS grew with the store (100,000 rows: 93 MiB, 3.05× a
//     10,000-row export's); read into a small cache it stays flat.
//
// Answers that read neighbouring pages again and again (bis demand's tally,
// bis report's scan) keep the map, which serves them better. The
// connection gets its settings back after.
func (db *DB) unmappedReads(ctx context.Context, fn func(querier) error) error {
	if !db.readOnly || db.pg != nil {
		return fn(db.sql)
	}
	conn, err := db.sql.Conn(ctx)
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
// where SQLite's default is 4. Replaying a first sync's writes of 100,000
// submissions and building its indexes took 13% less CPU (4.8 → 4.2 s;
// 16 KiB took 5.6 s). A mirror made before keeps its 4 KiB pages.
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
// a commit copies them into the database (two fsyncs): 8,192 pages, 32 MiB,
// where SQLite's default of 1,000 checkpointed every few pages of a full
// pass. The log is truncated when a pass ends (checkpoint).
const walCheckpointPages = 8192

// checkpoint copies the write-ahead log into the database and empties it,
// so that a finished pass leaves no 32 MiB log beside the file. A reader
// in the middle of a query may keep it from finishing: the next one will.
func (db *DB) checkpoint(ctx context.Context) {
	if db.pg != nil {
		return
	}
	_, _ = db.sql.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
}

// idList is an SQL list of the ids in the JSON array bound to param, for
// `id IN idList(…)`: one statement, prepared once, for a page of any size.
func idList(param string) string {
	return "(SELECT value FROM json_each(" + param + "))"
}

// idListArg is the argument idList reads.
func idListArg(nums []int64) string {
	b := make([]byte, 0, 16*len(nums)+2)
	b = append(b, '[')
	for i, n := range nums {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, n, 10)
	}
	return string(append(b, ']'))
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

// Space is how much of the mirror's file holds data.
type Space struct {
	File int64 // the database file, without its write-ahead log
	// Free is the part of the file that holds nothing (pages left by
	// deleted rows and dropped indexes): what `mirror vacuum` gives back
	// at least (it also packs half-full pages).
	Free int64
}

// space reads the file's page counts (none on PostgreSQL: no file).
func (db *DB) space(ctx context.Context) (Space, error) {
	if db.pg != nil {
		return Space{}, nil
	}
	var pageSize, pages, free int64
	for _, p := range []struct {
		q string
		v *int64
	}{{"PRAGMA page_size", &pageSize}, {"PRAGMA page_count", &pages}, {"PRAGMA freelist_count", &free}} {
		if err := db.sql.QueryRowContext(ctx, p.q).Scan(p.v); err != nil {
			return Space{}, err
		}
	}
	return Space{File: pages * pageSize, Free: free * pageSize}, nil
}

// Vacuum rewrites the file without its free pages, every page packed
// full, and says its size before and after. It needs the mirror opened to
// write (one writer at a time), and room for a copy of the file beside it.
func (db *DB) Vacuum(ctx context.Context) (before, after Space, err error) {
	defer db.explain(&err)
	if before, err = db.space(ctx); err != nil {
		return before, after, err
	}
	if _, err := db.sql.ExecContext(ctx, "VACUUM"); err != nil {
		return before, after, err
	}
	db.checkpoint(ctx)
	after, err = db.space(ctx)
	return before, after, err
}
