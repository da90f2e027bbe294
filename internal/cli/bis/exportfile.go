package bis

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/fsutil"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// createExportFile starts writing an export to path: mode 0600 from the
// first byte (exports hold customers' e-mails and phones), and nothing at
// path until the export is complete (a pipe or device is written as it
// goes). Temp files left by a dead earlier export are removed and named.
func createExportFile(ios *iostreams.IOStreams, path string) (fsutil.Output, error) {
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("cannot write %s: the directory %s does not exist (create it first)", path, dir)
	}
	out, err := fsutil.CreateOutput(path, 0o600)
	if err != nil {
		return nil, err
	}
	for _, name := range out.Stale() {
		fmt.Fprintf(ios.ErrOut, "removed %s, left in %s by an export that was killed\n", name, dir)
	}
	return out, nil
}

// exportFormat is -o from this command line, else the format --file's
// extension names, else CSV. An -o that contradicts the extension is a
// usage error: a file named .csv holding JSON breaks whatever opens it.
func exportFormat(s *config.Settings, file string) (output.Format, error) {
	byExt, named := output.FormatOfFile(file)
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
