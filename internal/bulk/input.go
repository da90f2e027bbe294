package bulk

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/storectl/storectl/internal/exitcode"
)

// Format is a bulk input format.
type Format string

const (
	CSV    Format = "csv"
	JSON   Format = "json"   // an array of objects
	NDJSON Format = "ndjson" // one object per line
	YAML   Format = "yaml"   // a list of mappings
	// Text is lines of plain text (ids), read with Lines; only when asked.
	Text Format = "text"
	// XLSX is a workbook (Office Open XML), read as a CSV is: its first
	// row the header.
	XLSX Format = "xlsx"
)

// Cells reports a format whose values are cells of text under a header
// row (CSV, a workbook): an empty cell is a value not given.
func (f Format) Cells() bool { return f == CSV || f == XLSX }

// Input is a bulk file ready to be read, once or more (validation first,
// then the run): a named file, or stdin spooled to a private temp file so
// that it too can be read twice without being held in memory.
type Input struct {
	Name   string // as the user gave it; "standard input" for "-"
	Format Format
	// Noun names the records in messages ("rules"); "rows" when empty.
	Noun string
	// Delimiter separates a CSV's cells; 0 reads it from the header row:
	// a header without a comma but with semicolons (a spreadsheet saved in
	// a locale whose decimal mark is the comma) or tabs is read with those.
	Delimiter rune
	// Hash identifies the content: an automatic journal is named after it,
	// so the same rows resume the same run whatever the file is called.
	Hash string

	path  string
	spool bool // path is a temp copy of stdin, removed by Close
}

// Formats a reader may accept; nil means all.
type Formats []Format

// Open opens a bulk file ("-" for stdin) in one of the accepted formats,
// chosen by the extension, else by the content. It checks the text as a
// whole (UTF-8, no NUL bytes); each format's reader checks its syntax.
func Open(path string, stdin io.Reader, accept Formats) (*Input, error) {
	in := &Input{Name: path, path: path}
	if path == "-" {
		in.Name = "standard input"
		spooled, err := spoolStdin(stdin)
		if err != nil {
			return nil, err
		}
		in.path, in.spool = spooled, true
	}
	if info, err := os.Stat(in.path); err != nil {
		return nil, &OpenError{Name: in.Name, Err: err}
	} else if info.IsDir() {
		return nil, exitcode.Usagef("%s is a directory: name the file to read", in.Name)
	}
	if err := in.sniffBinary(path, accept); err != nil {
		in.Close()
		return nil, err
	}
	if in.Format == XLSX {
		return in, nil
	}
	head, hash, err := in.scan()
	if err != nil {
		in.Close()
		return nil, err
	}
	in.Hash = hash
	in.Format = detectFormat(path, head, accept)
	if accept.has(Text) {
		in.Format = Text
	}
	if len(accept) > 0 && !accept.has(in.Format) {
		in.Close()
		return nil, exitcode.Usagef("%s: %s files are not read here: use %s", in.Name, in.Format, accept)
	}
	return in, nil
}

// OpenError is a bulk file that cannot be opened (missing, unreadable):
// a usage error, to which the command adds the flag that named the file.
type OpenError struct {
	Name string
	Err  error
}

func (e *OpenError) Error() string { return fmt.Sprintf("cannot read %s: %v", e.Name, e.Err) }
func (e *OpenError) Unwrap() error { return e.Err }

// ExitCode is 2: nothing was sent.
func (e *OpenError) ExitCode() int { return exitcode.Usage }

// Close removes a spooled copy of stdin.
func (in *Input) Close() {
	if in != nil && in.spool {
		os.Remove(in.path)
	}
}

func (f Formats) has(x Format) bool {
	for _, a := range f {
		if a == x {
			return true
		}
	}
	return false
}

func (f Formats) String() string {
	names := make([]string, len(f))
	for i, x := range f {
		names[i] = string(x)
	}
	return strings.Join(names, ", ")
}

// Workbook files by their first bytes: a zip (.xlsx, .ods) or an OLE
// compound file (.xls).
var (
	zipMagic = []byte("PK\x03\x04")
	oleMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
)

// sniffBinary recognises a workbook by its name or first bytes, before the
// text checks could call it a file with NUL bytes: an .xlsx is read (with
// its hash) where accept allows it; any other spreadsheet file is refused
// with what to save it as.
func (in *Input) sniffBinary(name string, accept Formats) error {
	f, err := os.Open(in.path)
	if err != nil {
		return exitcode.Usagef("cannot read %s: %v", in.Name, err)
	}
	defer f.Close()
	head := make([]byte, 8)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	ext := strings.ToLower(filepath.Ext(name))
	isZip := bytes.HasPrefix(head, zipMagic)
	switch {
	case bytes.HasPrefix(head, oleMagic) || ext == ".xls":
		return workbookError(&WorkbookError{Name: in.Name, Kind: "an Excel 97-2003 workbook (.xls)"})
	case ext == ".ods" || ext == ".numbers" || isZip && ext != "" && ext != ".xlsx" && ext != ".xlsm":
		return workbookError(&WorkbookError{Name: in.Name, Kind: "a spreadsheet file, not text"})
	case !isZip:
		return nil
	case len(accept) > 0 && !accept.has(XLSX):
		return workbookError(&WorkbookError{Name: in.Name, Kind: "a workbook", Unread: true})
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	sum := sha256.New()
	if _, err := io.Copy(sum, f); err != nil {
		return fmt.Errorf("cannot read %s: %w", in.Name, err)
	}
	in.Format, in.Hash = XLSX, hex.EncodeToString(sum.Sum(nil))
	return nil
}

// WorkbookError is a spreadsheet file that is not read: its kind, or
// (Unread) a workbook where only text is read. Nothing was sent.
type WorkbookError struct {
	Name, Kind string
	Unread     bool
}

func (e *WorkbookError) Error() string {
	if e.Unread {
		return fmt.Sprintf("%s is a workbook, and only text is read here", e.Name)
	}
	return fmt.Sprintf("%s is %s", e.Name, e.Kind)
}

// workbookError is e with what to save the file as.
func workbookError(e *WorkbookError) error {
	if e.Unread {
		return exitcode.UsageHint(e, "save it as CSV (UTF-8), or as text with one item per line")
	}
	return exitcode.UsageHint(e, "save it as CSV (UTF-8) or as an Excel workbook (.xlsx)")
}

// spoolStdin copies stdin to a temp file only this user can read: its rows
// may name customers.
func spoolStdin(stdin io.Reader) (string, error) {
	f, err := os.CreateTemp("", "storectl-stdin-*")
	if err != nil {
		return "", fmt.Errorf("cannot keep standard input for reading: %w", err)
	}
	_ = f.Chmod(0o600)
	if _, err := io.Copy(f, stdin); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", fmt.Errorf("cannot read standard input: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// scan reads the whole text once, streaming: it refuses invalid UTF-8 and
// NUL bytes with their line (a file saved in another encoding would send
// U+FFFD in place of every accented letter), hashes the content and keeps
// the start for format detection.
func (in *Input) scan() (head []byte, hash string, err error) {
	f, err := os.Open(in.path)
	if err != nil {
		return nil, "", exitcode.Usagef("cannot read %s: %v", in.Name, err)
	}
	defer f.Close()
	sum := sha256.New()
	r := bufio.NewReaderSize(io.TeeReader(f, sum), 64<<10)
	var carry []byte // the start of a line longer than the buffer
	for line := 1; ; line++ {
		text, readErr := r.ReadSlice('\n')
		if errors.Is(readErr, bufio.ErrBufferFull) {
			// A very long line: check it in pieces, keeping a split rune.
			carry = append(carry, text...)
			line--
			continue
		}
		if carry != nil {
			text, carry = append(carry, text...), nil
		}
		if line == 1 {
			text = bytes.TrimPrefix(text, utf8BOM)
		}
		if len(head) < 4096 {
			head = append(head, text[:min(len(text), 4096-len(head))]...)
		}
		if i := bytes.IndexByte(text, 0); i >= 0 {
			return nil, "", exitcode.Usagef("%s: line %d holds a NUL byte: is it a text file?", in.Name, line)
		}
		if !utf8.Valid(text) {
			return nil, "", exitcode.UsageHint(fmt.Errorf("%s: line %d is not valid UTF-8", in.Name, line),
				"save the file as UTF-8 (in Excel: Save As, CSV UTF-8)")
		}
		if readErr == io.EOF {
			break
		}
		if readErr != nil {
			return nil, "", fmt.Errorf("cannot read %s: %w", in.Name, readErr)
		}
	}
	return head, hex.EncodeToString(sum.Sum(nil)), nil
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// open returns the content without its byte-order mark: the one place a
// BOM (spreadsheets write one) is stripped.
func (in *Input) open() (io.ReadCloser, error) {
	f, err := os.Open(in.path)
	if err != nil {
		return nil, exitcode.Usagef("cannot read %s: %v", in.Name, err)
	}
	r := bufio.NewReaderSize(f, 64<<10)
	if start, _ := r.Peek(3); bytes.Equal(start, utf8BOM) {
		_, _ = r.Discard(3)
	}
	return struct {
		io.Reader
		io.Closer
	}{r, f}, nil
}

// detectFormat picks the format from the extension, else from the content:
// [ is a JSON array, { an NDJSON stream, a first line of commas (or
// semicolons, or tabs) without colons a CSV header, anything else YAML. When accept has one text format
// only (CSV for ids), that wins for an unknown extension.
func detectFormat(name string, head []byte, accept Formats) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv":
		return CSV
	case ".json":
		return JSON
	case ".ndjson", ".jsonl":
		return NDJSON
	case ".yaml", ".yml":
		return YAML
	}
	trimmed := bytes.TrimSpace(head)
	switch {
	case len(trimmed) > 0 && trimmed[0] == '[':
		return JSON
	case len(trimmed) > 0 && trimmed[0] == '{':
		if line, _, _ := bytes.Cut(trimmed, []byte("\n")); !json.Valid(line) {
			return JSON // one object over several lines, as -o json prints an item
		}
		return NDJSON
	}
	first, _, _ := bytes.Cut(trimmed, []byte("\n"))
	if bytes.ContainsAny(first, ",;\t") && !bytes.Contains(first, []byte(":")) || !accept.has(YAML) && len(accept) > 0 {
		return CSV
	}
	return YAML
}

// Lines calls fn with every line of a Text input (its byte-order mark gone,
// its end of line trimmed), numbered from 1.
func (in *Input) Lines(fn func(line int, text string) error) error {
	rc, err := in.open()
	if err != nil {
		return err
	}
	defer rc.Close()
	sc := bufio.NewScanner(rc)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		if err := fn(line, strings.TrimRight(sc.Text(), "\r")); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("cannot read %s: %w", in.Name, err)
	}
	return nil
}
