package bis

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/fsutil"
	"github.com/storectl/storectl/internal/output"
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

// exportFormat is -o from this command line, else the format --file's
// extension names, else CSV. An -o that contradicts the extension is a
// usage error: a file named .csv holding JSON breaks whatever opens it.
func exportFormat(s *config.Settings, file string) (output.Format, error) {
	byExt, named := extensionFormats[strings.ToLower(filepath.Ext(file))]
	flag, given := s.OutputFlag()
	switch {
	case given && named && output.Format(flag) != byExt:
		return "", exitcode.Usagef("-o %s contradicts the extension of --file %s (%s): drop -o, or name the file for its format", flag, file, byExt)
	case given:
		return output.Format(flag), nil
	case named:
		return byExt, nil
	}
	return output.CSV, nil
}

var extensionFormats = map[string]output.Format{
	".csv": output.CSV, ".json": output.JSON, ".ndjson": output.NDJSON, ".jsonl": output.NDJSON, ".yaml": output.YAML, ".yml": output.YAML,
}
