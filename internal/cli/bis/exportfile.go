package bis

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/storectl/storectl/internal/fsutil"
)

// createExportFile starts writing an export to path: mode 0600 from the
// first byte (exports hold customers' e-mails and phones), and nothing at
// path until the export is complete.
func createExportFile(path string) (*fsutil.AtomicFile, error) {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return nil, fmt.Errorf("--file %s is a directory: name the file to write", path)
	}
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("cannot write %s: the directory %s does not exist (create it first)", path, dir)
	}
	return fsutil.CreateAtomic(path, 0o600)
}
