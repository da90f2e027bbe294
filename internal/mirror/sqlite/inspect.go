package sqlite

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// sqliteMagic opens every SQLite 3 database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// inspect looks at what stands at path before SQLite does, so that each way
// a mirror file can be unusable gets one DamagedError naming the file and
// the cause, the same for every command: missing reports that nothing is
// there yet (a mirror not made).
func inspect(path string) (missing bool, err error) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		if to, linkErr := os.Readlink(path); linkErr == nil {
			// Creating the mirror through it would make a file wherever it
			// points; replacing it would undo what the user linked.
			return false, &backend.DamagedError{Path: path, Cause: fmt.Sprintf("it is a symbolic link to %s, which does not exist", to)}
		}
		return true, fileInPlaceOfDir(filepath.Dir(path))
	case err != nil:
		return false, err
	case info.IsDir():
		return false, &backend.DamagedError{Path: path, Cause: "it is a directory, not a database file"}
	case !info.Mode().IsRegular():
		return false, &backend.DamagedError{Path: path, Cause: "it is not a regular file (a device, pipe or socket)"}
	case info.Size() == 0:
		return false, &backend.DamagedError{Path: path, Cause: "it is empty (0 bytes)"}
	}
	return false, checkHeader(path, info.Size())
}

// fileInPlaceOfDir finds a file standing where one of the mirror's
// directories should be.
func fileInPlaceOfDir(dir string) error {
	for {
		info, err := os.Stat(dir)
		switch {
		case err == nil && !info.IsDir():
			return &backend.DamagedError{Path: dir, Cause: "it is a file, where the mirror's directory should be"}
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

// checkHeader reads the database header: a file that does not start like
// a SQLite database, or is shorter than its header says, is damaged.
func checkHeader(path string, size int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h := make([]byte, 100)
	n, err := io.ReadFull(f, h)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return err
	}
	if n < len(sqliteMagic) || !bytes.Equal(h[:len(sqliteMagic)], sqliteMagic) {
		return &backend.DamagedError{Path: path, Cause: "it is not a SQLite database"}
	}
	if n < len(h) {
		return &backend.DamagedError{Path: path, Cause: fmt.Sprintf("it is truncated (%d bytes, less than a database header)", size)}
	}
	if want := headerSize(h); size < want {
		return &backend.DamagedError{Path: path, Cause: fmt.Sprintf("it is truncated (%d bytes of the %d its header counts)", size, want)}
	}
	return nil
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
