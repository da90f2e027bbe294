package sqlite

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"

	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/storectl/storectl/internal/mirror/backend"
)

func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// damagedCode reports SQLite's result codes for a file that is not a
// sound database.
func damagedCode(code int) bool {
	switch code & 0xff {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return true
	}
	return false
}

// explain turns SQLite's codes for a damaged, locked or refused file into
// the mirror's errors; every method the commands call ends with it. parts
// are the features' (what a damaged file's verdict counts).
func explain(path string, parts []backend.Part, err error) error {
	var se *sqlite.Error
	var fe *backend.FileError
	switch {
	case err == nil || errors.As(err, &fe):
		return err
	case !errors.As(err, &se):
		return explainSystem(path, err)
	case damagedCode(se.Code()):
		return damagedDatabase(path, parts, "it is damaged (SQLite says: "+sqliteMessage(se.Error())+")")
	case se.Code()&0xff == sqlite3.SQLITE_BUSY:
		return &backend.LockedError{Path: path, Waited: BusyTimeout}
	case se.Code()&0xff == sqlite3.SQLITE_FULL:
		return fileError(path, path, backend.DiskFull, err)
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_AUTH:
		// SQLite does not say which file or why: the system does.
		if at, cause := refusedFile(path); cause != 0 {
			return fileError(path, at, cause, err)
		}
		return fmt.Errorf("the mirror at %s cannot be used: %w", path, err)
	}
	return err
}

// fileError is the system's refusal of one of the mirror's files, with
// SQLite's words when it said any.
func fileError(path, at string, cause backend.FileCause, err error) *backend.FileError {
	fe := &backend.FileError{Path: path, At: at, Cause: cause, Err: err}
	if se := (*sqlite.Error)(nil); errors.As(err, &se) {
		fe.Says = "SQLite says: " + sqliteMessage(se.Error())
	}
	return fe
}

// FileRefused is err, met on one of the files beside the mirror at path
// (a lock of its own a command keeps there), as a FileError naming the
// file or directory refused and the cause when the system refused it.
func FileRefused(path string, err error) error { return explainSystem(path, err) }

// explainSystem names the file and the cause of a system error met on
// the mirror's files: a read-only file system, a right missing, a full
// disk.
func explainSystem(path string, err error) error {
	var pe *fs.PathError
	at := path
	if errors.As(err, &pe) {
		at = pe.Path
	}
	if errors.Is(err, syscall.EROFS) || errors.Is(err, fs.ErrPermission) {
		// The system names the file it was asked for; the refusal may
		// be its directory's.
		if refused, cause := refusedFile(path); cause != 0 {
			return fileError(path, refused, cause, err)
		}
	}
	switch {
	case errors.Is(err, syscall.EROFS):
		return fileError(path, at, backend.ReadOnlyFS, err)
	case errors.Is(err, fs.ErrPermission):
		return fileError(path, at, backend.NoPermission, err)
	case errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT):
		return fileError(path, at, backend.DiskFull, err)
	}
	return err
}

// damagedDatabase is SQLite's verdict on the database at path, with what
// can still be counted of the rows it holds that exist nowhere else.
func damagedDatabase(path string, parts []backend.Part, cause string) *backend.DamagedError {
	return &backend.DamagedError{Path: path, Cause: cause, Readable: true, Undelivered: countUndelivered(path, parts)}
}

// Undelivered counts the rows of the mirror at path that exist nowhere
// else (the parts' Unrecoverable: the watch events no destination took
// yet), what deleting the file would lose. It is 0 when nothing at path
// is a database (nothing there, an empty file, a directory), -1 when a
// database's rows cannot be counted.
func Undelivered(path string, parts []backend.Part) int {
	missing, err := inspect(path)
	var damaged *backend.DamagedError
	if missing || errors.As(err, &damaged) {
		return 0
	}
	return countUndelivered(path, parts)
}

// countUndelivered counts them on a connection of its own, since the
// database may be damaged: a part whose table the file does not hold (an
// older schema) counts none; -1 when SQLite cannot read them.
func countUndelivered(path string, parts []backend.Part) int {
	q := connPragmas(true)
	conn, err := sql.Open("sqlite", fileURL(path, q))
	if err != nil {
		return -1
	}
	defer conn.Close()
	total := 0
	for _, p := range parts {
		if p.Unrecoverable == "" {
			continue
		}
		var n int
		err := conn.QueryRow(p.Unrecoverable).Scan(&n)
		var se *sqlite.Error
		switch {
		case errors.As(err, &se) && strings.Contains(se.Error(), "no such table"):
			n = 0
		case err != nil:
			return -1
		}
		total += n
	}
	if _, err := os.Stat(path); err != nil {
		return -1 // nothing there: nothing could be counted
	}
	return total
}

// sqliteMessage is SQLite's own words without the driver's wrapping: the
// error class before them and the result code after ("SQL logic error: no
// such column: nope (1)" says "no such column: nope").
func sqliteMessage(msg string) string {
	msg = strings.TrimPrefix(msg, "SQL logic error: ")
	if i := strings.LastIndex(msg, " ("); i > 0 && strings.HasSuffix(msg, ")") {
		if _, err := strconv.Atoi(msg[i+2 : len(msg)-1]); err == nil {
			msg = msg[:i]
		}
	}
	return msg
}
