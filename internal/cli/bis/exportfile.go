package bis

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/term"

	"github.com/storectl/storectl/internal/cli/cmdutil"
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
		return nil, exitcode.UsageHint(fmt.Errorf("cannot write %s: the directory %s does not exist", path, dir), "create it first: mkdir -p "+dir)
	}
	out, err := fsutil.CreateOutput(path, 0o600)
	if err != nil {
		return nil, cmdutil.LocalPathError(err)
	}
	for _, name := range out.Stale() {
		fmt.Fprintf(ios.ErrOut, "removed %s, left in %s by an export that was killed\n", name, dir)
	}
	return out, nil
}

// exportFormat is -o from this command line, else the format --file's
// extension names, else CSV (output.FileFormat refuses the mismatches).
func exportFormat(s *config.Settings, file string) (output.Format, error) {
	flag, _ := s.OutputFlag()
	return output.FileFormat(file, flag, output.CSV)
}

// exportPrinter prints the export: into --file, or to stdout. Its
// workbooks name their sheet "submissions".
func exportPrinter(opts *ExportOptions, format output.Format) (*output.Printer, error) {
	if opts.File == "" {
		p, err := opts.PrinterWithDefault(format)
		if err != nil {
			return nil, err
		}
		return p.Sheet("submissions"), nil
	}
	if format == output.XLSX && isTerminal(opts.File) {
		return nil, exitcode.UsageHint(fmt.Errorf("--file %s is a terminal, and a workbook is binary", opts.File),
			"name a file: --file submissions.xlsx")
	}
	p, err := opts.FilePrinter(format)
	if err != nil {
		return nil, err
	}
	return p.Sheet("submissions"), nil
}

// isTerminal reports path naming a terminal (--file /dev/stdout at one).
func isTerminal(path string) bool {
	info, err := os.Stat(path)
	if err != nil || info.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	f, err := fsutil.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	return term.IsTerminal(int(f.Fd()))
}
