package mirror

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	sqlite "modernc.org/sqlite"
)

// sqliteMagic opens every SQLite 3 database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// inspect looks at what stands at path before SQLite does, so that each way
// a mirror file can be unusable that needs no SQLite to see (nothing, an
// empty file, not a database, not a file) gets one DamagedError naming the
// file and the cause, the same for every command: missing reports that
// nothing is there yet (a mirror not made). An empty file is never handed
// to SQLite, which would delete a write-ahead log beside it.
func inspect(path string) (missing bool, err error) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		if to, linkErr := os.Readlink(path); linkErr == nil {
			// Creating the mirror through it would make a file wherever it
			// points; replacing it would undo what the user linked.
			return false, &DamagedError{Path: path, Cause: fmt.Sprintf("it is a symbolic link to %s, which does not exist", to)}
		}
		return true, fileInPlaceOfDir(filepath.Dir(path))
	case err != nil:
		return false, err
	case info.IsDir():
		return false, &DamagedError{Path: path, Cause: "it is a directory, not a database file"}
	case !info.Mode().IsRegular():
		return false, &DamagedError{Path: path, Cause: "it is not a regular file (a device, pipe or socket)"}
	case info.Size() == 0:
		return false, &DamagedError{Path: path, Cause: "it is empty (0 bytes)"}
	}
	return false, checkHeader(path)
}

// fileInPlaceOfDir finds a file standing where one of the mirror's
// directories should be.
func fileInPlaceOfDir(dir string) error {
	for {
		info, err := os.Stat(dir)
		switch {
		case err == nil && !info.IsDir():
			return &DamagedError{Path: dir, Cause: "it is a file, where the mirror's directory should be"}
		case err == nil:
			return nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil
		}
		dir = parent
	}
}

// checkHeader reads the start of the file: one that does not start like a
// SQLite database is not a mirror. Nothing else in the header is a
// verdict: a file shorter than its header counts is often whole, its last
// pages in the write-ahead log (a kill or a full disk in the middle of a
// checkpoint writes page 1, with the new count, before the pages after
// the file's end); only SQLite, reading both, can tell (verify).
func checkHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h := make([]byte, len(sqliteMagic))
	n, err := io.ReadFull(f, h)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return err
	}
	if n < len(sqliteMagic) || !bytes.Equal(h, sqliteMagic) {
		return &DamagedError{Path: path, Cause: "it is not a SQLite database"}
	}
	return nil
}

// headerAhead says how the file falls short of its header ("466944 bytes
// of the 581632 its header counts"), or "" when it does not.
func headerAhead(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", err
	}
	h := make([]byte, 100)
	n, err := io.ReadFull(f, h)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Sprintf("%d bytes, less than a database header", n), nil
	case err != nil:
		return "", err
	}
	if want := headerSize(h); info.Size() < want {
		return fmt.Sprintf("%d bytes of the %d its header counts", info.Size(), want), nil
	}
	return "", nil
}

// verify lets SQLite judge a file shorter than its header counts, before
// anything reads or migrates it: a writer first lets SQLite copy the
// write-ahead log into the file (a checkpoint, which is what completes an
// interrupted one); then, if the file is still short, SQLite's quick_check
// reads every page through the log and decides. Only its verdict makes
// the mirror damaged.
func (db *DB) verify(ctx context.Context) error {
	short, err := headerAhead(db.path)
	if err != nil || short == "" {
		return err
	}
	truncated := func(says string) error {
		return damagedDatabase(db.path, fmt.Sprintf("it is truncated: the file holds %s, and SQLite says: %s", short, says))
	}
	if !db.readOnly {
		_, err := db.sql.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
		if says, ok := damagedSays(err); ok {
			return truncated(says)
		}
		if err != nil {
			return err
		}
		if short, err = headerAhead(db.path); err != nil || short == "" {
			return err
		}
	}
	problems, err := quickCheck(ctx, db.sql)
	if says, ok := damagedSays(err); ok {
		return truncated(says)
	}
	if err != nil || len(problems) == 0 {
		return err
	}
	return truncated("quick_check finds " + strings.Join(problems, "; "))
}

// damagedSays is SQLite's words when err is its verdict that the file is
// not a sound database.
func damagedSays(err error) (string, bool) {
	var se *sqlite.Error
	if errors.As(err, &se) && damagedCode(se.Code()) {
		return sqliteMessage(se.Error()), true
	}
	return "", false
}

// quickCheck runs SQLite's quick_check: the problems it finds (at most
// three), none when the database is sound.
func quickCheck(ctx context.Context, q querier) ([]string, error) {
	rows, err := q.QueryContext(ctx, "PRAGMA quick_check(3)")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		if p != "ok" {
			problems = append(problems, p)
		}
	}
	return problems, rows.Err()
}

// headerSize is the file size the header records (page size × pages), or
// 0 when the header's count is not known to be current.
func headerSize(h []byte) int64 {
	pageSize := int64(binary.BigEndian.Uint16(h[16:18]))
	if pageSize == 1 {
		pageSize = 65536
	}
	pages := int64(binary.BigEndian.Uint32(h[28:32]))
	changeCounter, validFor := binary.BigEndian.Uint32(h[24:28]), binary.BigEndian.Uint32(h[92:96])
	if changeCounter != validFor {
		return 0
	}
	return pageSize * pages
}
