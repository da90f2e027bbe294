package catalog

import (
	"strings"

	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/output"
)

// A response prints as the whole object (json, yaml, and any --jq, which
// runs on the object), as its products (ndjson one per line, csv a row
// each), or as the command's table view.
type responseView int

const (
	viewTable responseView = iota
	viewWhole
	viewProducts
)

func view(p *output.Printer, s *config.Settings) responseView {
	switch {
	case strings.TrimSpace(s.JQ) != "":
		return viewWhole
	case p.Format() == output.NDJSON || p.Format() == output.CSV || p.Format() == output.XLSX:
		return viewProducts
	case p.Format() == output.Table:
		return viewTable
	}
	return viewWhole
}
