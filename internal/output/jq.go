package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/itchyny/gojq"

	"github.com/storectl/storectl/internal/exitcode"
)

// compileJQ parses and compiles a --jq expression; a mistake in it is a
// usage error carrying gojq's message. The expression sees the process's
// environment as env and $ENV, as in jq; with guard, its @csv and @tsv
// cells go through the formula guard (jqguard.go).
func compileJQ(expr string, guard bool) (*gojq.Code, error) {
	q, err := gojq.Parse(expr)
	if err != nil {
		return nil, exitcode.Usagef("invalid --jq expression %q: %v", expr, err)
	}
	opts := []gojq.CompilerOption{gojq.WithEnvironLoader(os.Environ)}
	if guard {
		// Parsed again behind the definitions, once the expression alone
		// parsed: its errors point into what the user wrote.
		if q, err = gojq.Parse(guardedFormats + expr); err != nil {
			return nil, exitcode.Usagef("invalid --jq expression %q: %v", expr, err)
		}
		opts = append(opts, guardedFormatOptions()...)
	}
	code, err := gojq.Compile(q, opts...)
	if err != nil {
		return nil, exitcode.Usagef("invalid --jq expression %q: %v", expr, err)
	}
	return code, nil
}

// jqSink writes one --jq result: as text (jqText) or, with -o csv, as CSV
// rows (jqCSV).
type jqSink interface {
	value(out *bytes.Buffer, v any) error
}

// jqSinkFor is where p's --jq results go: CSV rows for -o csv, whose
// columns follow order (the command's column keys) where they can, else
// text.
func (p *Printer) jqSinkFor(order []string, tty, color bool) jqSink {
	if p.format == CSV {
		return &jqCSV{opts: p.csv, noHeaders: p.noHeaders, order: order, tty: tty}
	}
	return jqText{tty: tty, color: color}
}

// runJQ runs the program on raw JSON and gives each result to sink. Numbers
// enter gojq as json.Number and leave through gojq.Marshal, so integers of
// any size keep every digit. A result the sink refuses stops the run with
// nothing of this run written.
func runJQ(w io.Writer, code *gojq.Code, raw []byte, sink jqSink) error {
	dec := json.NewDecoder(bytes.NewReader(jsonSafe(raw)))
	dec.UseNumber()
	var input any
	if err := dec.Decode(&input); err != nil {
		return invalidJSON(err)
	}
	var out bytes.Buffer
	iter := code.Run(input)
	for {
		v, ok := iter.Next()
		if !ok {
			break
		}
		if err, isErr := v.(error); isErr {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				break // halt: stop without an error
			}
			if _, werr := w.Write(out.Bytes()); werr != nil {
				return werr
			}
			// Exit 1 whatever the error: gojq's halt_error carries exit code 5,
			// which storectl reserves for partial bulk failures.
			return exitcode.Wrap(exitcode.Failure, fmt.Errorf("--jq: %w", err))
		}
		if err := sink.value(&out, v); err != nil {
			return err
		}
	}
	_, err := w.Write(out.Bytes())
	return err
}

// jqText prints each result like gh --jq (or jq -r): a string as plain
// text, anything else as JSON, indented on a terminal and on one line
// otherwise. Objects come out with sorted keys (gojq's maps have no
// order). A string bound for a terminal is sanitised; one bound for a pipe
// is left exact. With color, JSON results (not plain strings) come out in
// colour.
type jqText struct{ tty, color bool }

func (t jqText) value(out *bytes.Buffer, v any) error { return writeJQValue(out, v, t.tty, t.color) }

func writeJQValue(out *bytes.Buffer, v any, tty, color bool) error {
	if s, ok := v.(string); ok {
		if tty {
			s = Sanitize(s)
		}
		out.WriteString(s)
		out.WriteByte('\n')
		return nil
	}
	b, err := gojq.Marshal(v)
	if err != nil {
		return fmt.Errorf("--jq: %w", err)
	}
	b = jsonSafe(b)
	if tty {
		var indented bytes.Buffer
		if err := json.Indent(&indented, b, "", "  "); err != nil {
			return fmt.Errorf("--jq: %w", err)
		}
		b = indented.Bytes()
	}
	if color {
		colorJSON(out, b)
	} else {
		out.Write(b)
	}
	out.WriteByte('\n')
	return nil
}
