package sqlite

import (
	"errors"
	"strconv"
	"strings"

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

// explain turns SQLite's codes for a damaged or locked file into the
// mirror's errors; every method the commands call ends with it.
func explain(path string, err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	switch {
	case damagedCode(se.Code()):
		return &backend.DamagedError{Path: path, Cause: "it is damaged (SQLite says: " + sqliteMessage(se.Error()) + ")"}
	case se.Code()&0xff == sqlite3.SQLITE_BUSY:
		return &backend.LockedError{Path: path, Waited: BusyTimeout}
	}
	return err
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
