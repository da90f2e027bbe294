package fsutil

import (
	"fmt"
	"path/filepath"
)

// PlaceFile moves a file that was built whole under the temporary name tmp
// (a database created and migrated by SQLite, which writes its own file)
// to path, as Commit does: renamed over it, and the rename made durable.
// A crash before it leaves nothing at path.
func PlaceFile(tmp, path string) error {
	if err := replace(tmp, path); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	syncDir(filepath.Dir(path))
	return nil
}
