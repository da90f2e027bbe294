package bulk

import (
	"encoding/json"

	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// Results prints a bulk run's per-item lines as they come: streamed in
// every format (memory stays flat whatever the number of rows), moving the
// progress line out of the way on a terminal. -q prints the ids of what
// was created instead, one per line.
type Results struct {
	ios    *iostreams.IOStreams
	stream output.Stream
	quiet  bool
}

// NewResults starts the output of a bulk run.
func NewResults(ios *iostreams.IOStreams, p *output.Printer, progress *output.Progress, quiet bool, cols []output.Column) (*Results, error) {
	r := &Results{ios: ios, quiet: quiet}
	if quiet {
		return r, nil
	}
	s, err := p.Stream(progress.Above(ios.Out), cols)
	if err != nil {
		return nil, err
	}
	r.stream = s
	return r, nil
}

// Write prints one item's line; id is what -q prints of a created item.
func (r *Results) Write(line any, created bool, id string) error {
	if r.quiet {
		if !created || id == "" {
			return nil
		}
		_, err := r.ios.Out.Write([]byte(id + "\n"))
		return err
	}
	raw, err := json.Marshal(line)
	if err != nil {
		return err
	}
	return r.stream.Write(raw)
}

// Close finishes the output.
func (r *Results) Close() error {
	if r.stream == nil {
		return nil
	}
	return r.stream.Close()
}
