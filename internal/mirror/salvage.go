package mirror

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strings"
	"time"

	"github.com/gofrs/flock"
	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/storectl/storectl/internal/fsutil"
)

// salvageTables are the tables whose rows a salvage copies, in this order:
// the outbox first (its events exist nowhere else until delivered), the
// watch's state and the store's name, then the store's rows, parents
// before their children. Not copied: the sync journal, whose passes claim
// rows that may not have been read (so the next sync of each list is a
// full pass), an unfinished export's rows, and the tallies, which the
// triggers count again from the rows copied.
var salvageTables = []string{"outbox", "watch_lists", "watch_alerts", "store",
	"submissions", "offers", "offer_products", "priority_rows", "rules", "form_fields", "odd_rows"}

// salvageBatch is how many rows are read and written at a time.
const salvageBatch = 500

// SalvageReport says what a salvage saved, and where the damaged file went.
type SalvageReport struct {
	Path string `json:"path"`
	// KeptAs is where the damaged file (and its write-ahead log) now is.
	KeptAs string         `json:"damaged_file_kept_as"`
	Tables []SalvageCount `json:"tables"`
}

// SalvageCount is one table's rows copied, and where SQLite could not
// read.
type SalvageCount struct {
	Name   string `json:"table"`
	Copied int64  `json:"rows_copied"`
	// Unreadable says what SQLite said where it could not read rows (the
	// first time), "" when it read them all.
	Unreadable string `json:"unreadable,omitempty"`
}

// Salvage copies every row SQLite can read in the mirror at path into a
// new mirror, the undelivered watch events first, and puts the new mirror
// in its place, keeping the damaged file (with its log) beside it as
// <path>.damaged-<time>: nothing is deleted. The new mirror has no sync
// journal, so the next sync of each list reads every page, which fetches
// what could not be read and marks gone what has left the store. It takes
// the writers' lock: a running sync or watch makes it ErrBusy.
func Salvage(ctx context.Context, path string, now time.Time) (rep *SalvageReport, err error) {
	defer func() { err = explainSQLite(path, err) }()
	if missing, err := inspect(path); err != nil || missing {
		if missing {
			err = &NoMirrorError{Path: path}
		}
		return nil, err
	}
	lock := flock.New(path+".lock", flock.SetPermissions(0o600))
	ok, err := lock.TryLock()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &BusyError{Path: path}
	}
	defer lock.Unlock()

	src, err := sql.Open("sqlite", dsn(path, true, 0))
	if err != nil {
		return nil, err
	}
	defer src.Close()
	var version int
	if err := src.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err == nil && version > SchemaVersion {
		return nil, &NewerSchemaError{Path: path, Version: version}
	}
	newPath := path + ".salvage"
	removeWithLog(newPath)
	if err := create(ctx, newPath); err != nil {
		return nil, err
	}
	rep = &SalvageReport{Path: path, KeptAs: keptAsName(path, now)}
	if err := copyReadable(ctx, src, newPath, rep); err != nil {
		removeWithLog(newPath)
		return nil, err
	}
	src.Close()
	if err := placeSalvaged(path, newPath, rep.KeptAs); err != nil {
		return nil, err
	}
	removeWithLog(newPath) // the shared-memory index the copy left
	return rep, nil
}

// copyReadable copies the salvage tables' readable rows from src into the
// new mirror at dstPath.
func copyReadable(ctx context.Context, src *sql.DB, dstPath string, rep *SalvageReport) error {
	dst, err := sql.Open("sqlite", dsn(dstPath, false, 0))
	if err != nil {
		return err
	}
	defer dst.Close()
	dst.SetMaxOpenConns(1)
	for _, table := range salvageTables {
		cols, err := sharedColumns(ctx, src, dst, table)
		if says, damaged := damagedSays(err); damaged {
			rep.Tables = append(rep.Tables, SalvageCount{Name: table, Unreadable: says})
			continue
		}
		if err != nil {
			return err
		}
		if len(cols) == 0 {
			continue // not in this file (an older schema)
		}
		count, err := copyTable(ctx, src, dst, table, cols)
		if err != nil {
			return err
		}
		rep.Tables = append(rep.Tables, count)
	}
	return dst.Close()
}

// sharedColumns are the columns of table in both files, but the pass that
// last met a row (seen_by), which names a journal entry not copied.
func sharedColumns(ctx context.Context, src, dst *sql.DB, table string) ([]string, error) {
	have, err := tableColumns(ctx, src, table)
	if err != nil {
		return nil, err
	}
	want, err := tableColumns(ctx, dst, table)
	if err != nil {
		return nil, err
	}
	var cols []string
	for _, c := range want {
		if c != "seen_by" && containsString(have, c) {
			cols = append(cols, c)
		}
	}
	return cols, nil
}

func tableColumns(ctx context.Context, conn *sql.DB, table string) ([]string, error) {
	rows, err := conn.QueryContext(ctx, "SELECT name FROM pragma_table_info(?)", table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		cols = append(cols, c)
	}
	return cols, rows.Err()
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// copyTable copies table's rows in rowid order, a batch at a time. Where
// SQLite cannot read, it seeks past the damage (pastDamage) and goes on
// from the first rowid it can read again: a damaged page costs the rows on
// it, not the rest of the table.
func copyTable(ctx context.Context, src, dst *sql.DB, table string, cols []string) (SalvageCount, error) {
	count := SalvageCount{Name: table}
	list := `"` + strings.Join(cols, `", "`) + `"`
	read := fmt.Sprintf(`SELECT rowid, %s FROM "%s" WHERE rowid > ? ORDER BY rowid LIMIT %d`, list, table, salvageBatch)
	insert := fmt.Sprintf(`INSERT OR IGNORE INTO "%s" (%s) VALUES (%s)`, table, list, strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", "))
	after := int64(math.MinInt64)
	for {
		batch, last, readErr := readBatch(ctx, src, read, after, len(cols))
		if err := writeBatch(ctx, dst, insert, batch); err != nil {
			return count, err
		}
		count.Copied += int64(len(batch))
		says, damaged := damagedSays(readErr)
		switch {
		case readErr != nil && !damaged:
			return count, readErr
		case !damaged && len(batch) < salvageBatch:
			return count, nil
		case !damaged:
			after = last
			continue
		}
		if count.Unreadable == "" {
			count.Unreadable = says
		}
		next, ok, err := pastDamage(ctx, src, table, last)
		if err != nil || !ok {
			return count, err
		}
		after = next
	}
}

// pastDamage finds the least rowid after failed from which SQLite reads
// table again: it seeks 1, 2, 4, … rowids further until a seek reads, then
// halves the last step back to the first that does. ok is false when no
// seek reads before the largest rowid.
func pastDamage(ctx context.Context, src *sql.DB, table string, failed int64) (next int64, ok bool, err error) {
	seek := fmt.Sprintf(`SELECT rowid FROM "%s" WHERE rowid > ? ORDER BY rowid LIMIT 1`, table)
	reads := func(after int64) (bool, error) {
		var id int64
		err := src.QueryRowContext(ctx, seek, after).Scan(&id)
		if _, damaged := damagedSays(err); damaged {
			return false, nil
		}
		if errors.Is(err, sql.ErrNoRows) {
			err = nil
		}
		return err == nil, err
	}
	// The mirror's rowids are positive: damage before the first is
	// searched past from 0.
	lo := max(failed, -1)
	step := int64(1)
	for {
		if lo > math.MaxInt64-step {
			return 0, false, nil
		}
		ok, err := reads(lo + step)
		if err != nil {
			return 0, false, err
		}
		if ok {
			break
		}
		step *= 2
	}
	hi := lo + step
	lo += step / 2
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		ok, err := reads(mid)
		if err != nil {
			return 0, false, err
		}
		if ok {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true, nil
}

// readBatch reads up to a batch of rows after rowid after: the rows read
// before SQLite stopped, the last rowid among them, and why it stopped.
func readBatch(ctx context.Context, src *sql.DB, query string, after int64, ncols int) ([][]any, int64, error) {
	rows, err := src.QueryContext(ctx, query, after)
	if err != nil {
		return nil, after, err
	}
	defer rows.Close()
	var batch [][]any
	last := after
	for rows.Next() {
		vals := make([]any, ncols+1)
		ptrs := make([]any, len(vals))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return batch, last, err
		}
		last, _ = vals[0].(int64)
		batch = append(batch, vals[1:])
	}
	return batch, last, rows.Err()
}

// writeBatch inserts a batch in one transaction; a row the new mirror
// refuses (its constraints: an offer's product whose offer was lost) is
// left out.
func writeBatch(ctx context.Context, dst *sql.DB, insert string, batch [][]any) error {
	if len(batch) == 0 {
		return nil
	}
	tx, err := dst.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, insert)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, row := range batch {
		_, err := stmt.ExecContext(ctx, row...)
		var se *sqlite.Error
		if err != nil && !(errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT) {
			return err
		}
	}
	return tx.Commit()
}

// placeSalvaged moves the damaged file and its log aside and the new
// mirror into its place, under the writers' lock the caller holds. The log
// goes first and comes back if the file cannot follow: a log left beside
// the new mirror would be read as its own.
func placeSalvaged(path, newPath, keptAs string) error {
	for _, suffix := range []string{"-wal", "-shm", ""} {
		err := fsutil.PlaceFile(path+suffix, keptAs+suffix)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			if suffix == "" {
				_ = fsutil.PlaceFile(keptAs+"-wal", path+"-wal")
			}
			return err
		}
	}
	return fsutil.PlaceFile(newPath, path)
}

// keptAsName is where the damaged file goes: a name no file has yet.
func keptAsName(path string, now time.Time) string {
	base := path + ".damaged-" + now.UTC().Format("20060102T150405Z")
	name := base
	for i := 2; ; i++ {
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			return name
		}
		name = fmt.Sprintf("%s-%d", base, i)
	}
}
