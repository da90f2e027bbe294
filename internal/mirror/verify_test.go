package mirror

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// interruptedCheckpoint is a mirror as a kill -9 or a full disk in the
// middle of a checkpoint leaves it (issue 37): the write-ahead log holds
// every committed page, and the database file has the log's page 1, with
// the new page count, but not yet the pages past its end. SQLite reads the
// log and finds every row.
func interruptedCheckpoint(t *testing.T) string {
	t.Helper()
	path := syncedMirror(t)
	q := connPragmas(false)
	q.Set("_pragma", "wal_autocheckpoint(0)")
	conn, err := sql.Open("sqlite", fileURL(path, q))
	if err != nil {
		t.Fatal(err)
	}
	conn.SetMaxOpenConns(1)
	// Rows grown past the file's end, committed to the log only.
	if _, err := conn.Exec("UPDATE submissions SET note = hex(randomblob(2000))"); err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), "default.db")
	for _, suffix := range []string{"", "-wal"} {
		data, err := os.ReadFile(path + suffix)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, copyPath+suffix, data)
	}
	conn.Close()
	wal, err := os.ReadFile(copyPath + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	page := lastWALPage(t, wal, 1)
	f, err := os.OpenFile(copyPath, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(page, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if !shorterThanHeader(t, copyPath) {
		t.Fatal("the file is not shorter than its header: the test builds the wrong state")
	}
	return copyPath
}

// lastWALPage is the last image of page pgno that the write-ahead log
// holds (its frames follow a 32-byte header, each a 24-byte header and a
// page).
func lastWALPage(t *testing.T, wal []byte, pgno uint32) []byte {
	t.Helper()
	pageSize := int(binary.BigEndian.Uint32(wal[8:12]))
	var page []byte
	for off := 32; off+24+pageSize <= len(wal); off += 24 + pageSize {
		if bytes.Equal(wal[off+8:off+16], wal[16:24]) && binary.BigEndian.Uint32(wal[off:off+4]) == pgno {
			page = wal[off+24 : off+24+pageSize]
		}
	}
	if page == nil {
		t.Fatalf("no page %d in the log", pgno)
	}
	return page
}

// A file shorter than its header counts, whose log holds the rest, is not
// damaged: readers read it whole, a writer completes the checkpoint, and
// every row is there (on 9e0d722 every command called it "truncated" and
// offered mirror reset).
func TestInterruptedCheckpointIsNotDamage(t *testing.T) {
	path := interruptedCheckpoint(t)
	ctx := context.Background()
	for _, mode := range []Mode{ReadOnly, Outbox, Write} {
		db, err := Open(ctx, path, Options{Mode: mode, Store: "https://sandbox.test"})
		if err != nil {
			t.Fatalf("mode %d: %v", mode, err)
		}
		var rows, notes int
		if err := db.sql.QueryRow("SELECT count(*), count(note) FROM submissions").Scan(&rows, &notes); err != nil || rows != 40 || notes != 40 {
			t.Fatalf("mode %d: %d rows, %d notes, %v", mode, rows, notes, err)
		}
		if _, err := db.Status(ctx); err != nil {
			t.Fatalf("mode %d: status: %v", mode, err)
		}
		db.Close()
	}
	if shorterThanHeader(t, path) {
		t.Fatal("a writer left the file short")
	}
}

// mirror check calls it sound.
func TestCheckOfAnInterruptedCheckpoint(t *testing.T) {
	rep, err := Check(context.Background(), interruptedCheckpoint(t))
	if err != nil || !rep.Sound() || rep.Undelivered != 0 || len(rep.Tables) == 0 || rep.Tables[0].Name != "outbox" {
		t.Fatalf("%+v %v", rep, err)
	}
}

func shorterThanHeader(t *testing.T, path string) bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return int64(len(data)) < headerSize(data[:100])
}

// A file cut short with no log to complete it is SQLite's to call damaged;
// its outbox cannot be read, so the verdict does not say it holds nothing.
func TestTruncatedWithoutItsLogIsDamaged(t *testing.T) {
	path := syncedMirror(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, data[:len(data)/2])
	_, err = Open(context.Background(), path, Options{Mode: ReadOnly})
	var damaged *DamagedError
	if !errors.As(err, &damaged) || !damaged.Readable || damaged.Undelivered != -1 {
		t.Fatalf("%v (%+v)", err, damaged)
	}
}

// The outbox of a damaged mirror is counted for its verdict: a hint must
// not offer to delete events that were never delivered.
func TestDamageCountsUndeliveredEvents(t *testing.T) {
	path := syncedMirror(t)
	conn, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(`INSERT INTO outbox (id, type, resource, row_id, occurred_at, detected_at, data, state)
		VALUES ('evt_1', 'submission.created', 'submissions', 1, 'x', 'x', '{}', 'pending'),
		       ('evt_2', 'submission.created', 'submissions', 2, 'x', 'x', '{}', 'parked'),
		       ('evt_3', 'submission.created', 'submissions', 3, 'x', 'x', '{}', 'delivered')`); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	if n := countUndelivered(path); n != 2 {
		t.Fatalf("%d undelivered, want 2", n)
	}
	if n := countUndelivered(filepath.Join(t.TempDir(), "none.db")); n != -1 {
		t.Fatalf("%d undelivered in no file, want -1 (unknown)", n)
	}
}

// damagedLeaf is a synced mirror of 40 submissions (each row grown past a
// page's worth) with three events waiting in its outbox, and one page of
// the submissions table overwritten: SQLite opens it, its outbox reads,
// and the rows on that page are lost.
func damagedLeaf(t *testing.T) string {
	t.Helper()
	path := syncedMirror(t)
	conn, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	conn.SetMaxOpenConns(1)
	if _, err := conn.Exec(`UPDATE submissions SET note = hex(randomblob(1500));
		INSERT INTO outbox (id, type, resource, row_id, occurred_at, detected_at, data, state)
		VALUES ('evt_1', 'submission.created', 'submissions', 1, 'x', 'x', '{}', 'pending'),
		       ('evt_2', 'submission.created', 'submissions', 2, 'x', 'x', '{}', 'parked'),
		       ('evt_3', 'submission.created', 'submissions', 3, 'x', 'x', '{}', 'pending')`); err != nil {
		t.Fatal(err)
	}
	var root, pageSize int64
	if err := conn.QueryRow("SELECT rootpage, (SELECT page_size FROM pragma_page_size) FROM sqlite_master WHERE name = 'submissions'").Scan(&root, &pageSize); err != nil {
		t.Fatal(err)
	}
	conn.Close() // checkpoints: every page in the file
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	page := make([]byte, pageSize)
	if _, err := f.ReadAt(page, (root-1)*pageSize); err != nil {
		t.Fatal(err)
	}
	if page[0] != 0x05 { // an interior table page: its first cell points to a leaf
		t.Fatalf("the submissions table's root page is of type %#x, not interior", page[0])
	}
	firstCell := binary.BigEndian.Uint16(page[12:14])
	leaf := int64(binary.BigEndian.Uint32(page[firstCell : firstCell+4]))
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xA5}, int(pageSize)), (leaf-1)*pageSize); err != nil {
		t.Fatal(err)
	}
	return path
}

// SQLite's damage is named with what the outbox still holds, mirror check
// counts what can be read, and a salvage saves it, events first: the new
// mirror holds the three events and every readable row, and the damaged
// file is kept beside it, not deleted.
func TestSalvageSavesWhatSQLiteReads(t *testing.T) {
	path := damagedLeaf(t)
	ctx := context.Background()
	db, err := Open(ctx, path, Options{Mode: ReadOnly})
	if err == nil {
		_, err = db.Find(ctx, FindFilter{})
		db.Close()
	}
	var damaged *DamagedError
	if !errors.As(err, &damaged) || !damaged.Readable || damaged.Undelivered != 3 {
		t.Fatalf("%v (%+v)", err, damaged)
	}
	rep, err := Check(ctx, path)
	if err != nil || rep.Sound() || rep.Undelivered != 3 || rep.Tables[0] != (TableCount{Name: "outbox", Rows: 3}) {
		t.Fatalf("%+v %v", rep, err)
	}
	saved, err := Salvage(ctx, path, time.Date(2026, 11, 25, 8, 6, 22, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]SalvageCount{}
	for _, c := range saved.Tables {
		counts[c.Name] = c
	}
	if counts["outbox"].Copied != 3 || counts["outbox"].Unreadable != "" || counts["store"].Copied != 2 ||
		counts["submissions"].Copied == 0 || counts["submissions"].Copied >= 40 || counts["submissions"].Unreadable == "" {
		t.Fatalf("%+v", saved.Tables)
	}
	if saved.KeptAs != path+".damaged-20261125T080622Z" {
		t.Fatalf("kept as %s", saved.KeptAs)
	}
	if _, err := os.Stat(saved.KeptAs); err != nil {
		t.Fatalf("the damaged file is gone: %v", err)
	}
	rep, err = Check(ctx, path)
	if err != nil || !rep.Sound() || rep.Undelivered != 3 {
		t.Fatalf("after the salvage: %+v %v", rep, err)
	}
	db, err = Open(ctx, path, Options{Mode: Write, Store: "https://sandbox.test"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var rows, pending int64
	if err := db.sql.QueryRow("SELECT (SELECT count(*) FROM submissions), (SELECT count(*) FROM outbox WHERE state <> 'delivered')").Scan(&rows, &pending); err != nil ||
		rows != counts["submissions"].Copied || pending != 3 {
		t.Fatalf("%d rows, %d events pending, %v", rows, pending, err)
	}
}
