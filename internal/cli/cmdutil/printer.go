package cmdutil

import (
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// NewPrinter is the printer settings ask for; commandDefault, when not
// empty, is the format used unless the user chose one.
func NewPrinter(ios *iostreams.IOStreams, s *config.Settings, commandDefault output.Format) (*output.Printer, error) {
	return newPrinter(ios, s, commandDefault, false)
}

// NewFilePrinter is NewPrinter for a command writing the file the user
// named (bis export --file) in format: a workbook is fine there whatever
// stdout is.
func NewFilePrinter(ios *iostreams.IOStreams, s *config.Settings, format output.Format) (*output.Printer, error) {
	return newPrinter(ios, s, format, true)
}

func newPrinter(ios *iostreams.IOStreams, s *config.Settings, commandDefault output.Format, toFile bool) (*output.Printer, error) {
	name := s.Output
	if commandDefault != "" {
		name = s.OutputFor(string(commandDefault))
	}
	format, err := output.ParseFormat(name)
	if err != nil {
		return nil, err
	}
	return output.New(ios, output.Options{Format: format, Fields: s.Fields, JQ: s.JQ, NoHeaders: s.NoHeaders,
		CSV: output.CSVOptions{NoGuard: s.NoCSVGuard, Excel: s.Excel}, Pager: s.Pager, ToFile: toFile, Store: s.MirrorStore(), LocalZone: config.LocalZoneName})
}
