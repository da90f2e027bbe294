package bis

import (
	"fmt"
	"os"

	"golang.org/x/term"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/fsutil"
	"github.com/storectl/storectl/internal/output"
)

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
