package bis

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/fsutil"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
)

// RowWriter writes an export's rows in one format, as they come, and ends
// the output on Close. output.Stream is one (csv, json, ndjson, yaml, the
// table); a format that writes a document of its own (a spreadsheet)
// implements it too and is chosen in newRowWriter. Every export path, from
// the store or from the mirror, writes through the same one.
type RowWriter interface {
	Write(item json.RawMessage) error
	Close() error
}

// newRowWriter is the writer of the printer's format onto w.
func newRowWriter(p *output.Printer, w io.Writer, cols []output.Column) (RowWriter, error) {
	return p.Stream(w, cols)
}

// exportSink is where every export path writes: the rows' writer, the
// file written atomically (or stdout), and the count of rows written.
type exportSink struct {
	ios     *iostreams.IOStreams
	file    fsutil.Output // nil: stdout
	where   string        // the file's name, or stdout
	out     io.Writer     // the file, or stdout
	rows    RowWriter
	written int
	jq      bool
	// merged is one store's run of an export over several stores: the
	// merge writes the output and names it once, with every store's count.
	merged bool
	// repaired are the rows written with U+FFFD in place of bytes that
	// were not UTF-8, each named once (notUTF8).
	repaired     []string
	repairedSeen map[string]bool
}

// openSink opens where the export goes: --file (created beside PATH, put
// in place by commit) or stdout. The rows' writer comes with the columns
// (start).
func openSink(opts *ExportOptions) (*exportSink, error) {
	s := &exportSink{ios: opts.IO, where: "stdout", out: opts.IO.Out}
	if opts.File != "" {
		f, err := cmdutil.CreateResultFile(opts.IO, opts.File)
		if err != nil {
			return nil, err
		}
		s.file, s.where, s.out = f, opts.File, f
	}
	return s, nil
}

// start makes the rows' writer of the printer's format, with cols.
func (s *exportSink) start(p *output.Printer, cols []output.Column) error {
	rows, err := newRowWriter(p, s.out, cols)
	if err != nil {
		return err
	}
	s.rows, s.jq, s.merged = rows, p.HasJQ(), p.Collects()
	return nil
}

// Write writes one row; only a row written counts.
func (s *exportSink) Write(raw json.RawMessage) error {
	if err := s.rows.Write(s.storable(raw)); err != nil {
		return err
	}
	s.written++
	return nil
}

// WriteValid writes one row known to be valid JSON (an item of a page the
// client decoded whole), not checked again where the format can skip it
// (output.ValidWriter).
func (s *exportSink) WriteValid(raw json.RawMessage) error {
	v, ok := s.rows.(output.ValidWriter)
	if !ok {
		return s.Write(raw)
	}
	if err := v.WriteValid(s.storable(raw)); err != nil {
		return err
	}
	s.written++
	return nil
}

// storable is the row as the mirror stores it: JSON is UTF-8, so a row
// that is not is written with U+FFFD for each run of bytes that is not
// (mirror.StorableJSON), in every format alike, and named. The online
// export then writes what the mirror holds and an offline export writes,
// whichever path the row came by; rows from the mirror are UTF-8 already.
func (s *exportSink) storable(raw json.RawMessage) json.RawMessage {
	fixed, ok := mirror.StorableJSON(raw)
	if !ok {
		id, _ := shop.RowID(fixed)
		s.notUTF8(id)
	}
	return fixed
}

// notUTF8 notes rows that were not UTF-8 when sent: written here
// repaired, or repaired by the mirror before they came (the rows an
// export recorded), each named once.
func (s *exportSink) notUTF8(ids ...string) {
	if s.repairedSeen == nil {
		s.repairedSeen = map[string]bool{}
	}
	for _, id := range ids {
		if !s.repairedSeen[id] {
			s.repairedSeen[id] = true
			s.repaired = append(s.repaired, id)
		}
	}
}

// commit ends the output and puts the file in place.
func (s *exportSink) commit() error {
	if err := s.rows.Close(); err != nil {
		return err
	}
	if s.file != nil {
		return s.file.Commit()
	}
	return nil
}

// abort drops a file not committed (a no-op once it is).
func (s *exportSink) abort() {
	if s.file != nil {
		s.file.Abort()
	}
}

// done says what was written, then what the source has to add.
func (s *exportSink) done(src exportSource, settings *config.Settings) {
	if settings.Quiet {
		return
	}
	w := s.ios.ErrOut
	if !s.merged { // the merge says it once, with every store's count
		cmdutil.SayWritten(w, cmdutil.Written{What: "submission", Where: s.where, N: s.written, JQ: s.jq})
	}
	src.report(w)
	if len(s.repaired) > 0 {
		fmt.Fprintln(w, "warning: "+mirrorutil.NotUTF8("submissions", "row", s.repaired))
	}
}

// stopped says how far a failed or interrupted export got, with the rows
// actually written, and how to go on when --resume can help.
func (s *exportSink) stopped(src exportSource, err error, opts *ExportOptions) {
	w := s.ios.ErrOut
	where := "the output above is incomplete"
	switch {
	case s.merged:
		where = "its rows are left out of the merged output"
	case s.file != nil:
		where = s.where + " was not written"
	}
	_ = s.rows.Close() // what was streamed to stdout ends as a whole
	fmt.Fprintf(w, "export stopped %s; %s\n", src.reached(s.written), where)
	if src.resumable(err) {
		fmt.Fprintf(w, "to continue without reading again what was read: %s\n", cmdutil.ResumeCommand())
	}
}

// walkReached says how far a walk of the store got: "after 30 of 320
// rows (page 2 of 22)", with the rows written.
func walkReached(st shop.WalkState, written int) string {
	if !st.Started {
		return "before the first page was read"
	}
	return fmt.Sprintf("after %d of %d rows (page %d of %d)", written, st.LastTotal, st.Furthest, st.LastPage)
}

// resumeHelps says whether --resume can continue an export of the mirror
// that stopped with err, having recorded the pages of pos: not when
// nothing was recorded, nor when the server does not page (a resume would
// meet the same server) or the mirror itself is damaged, nor after a usage
// error (a --jq result -o csv cannot write), which the same command line
// meets again.
func resumeHelps(pos shop.WalkState, err error) bool {
	var paging *shop.PagingError
	var damaged *mirror.DamagedError
	return pos.Furthest > 0 && !errors.As(err, &paging) && !errors.As(err, &damaged) && exitcode.Of(err) != exitcode.Usage
}
