package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/storectl/storectl/internal/api/raw"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// answerPrinter prints what the server answered.
type answerPrinter struct {
	io      *iostreams.IOStreams
	printer *output.Printer
	quiet   bool
	include bool
}

// answer prints one answer and returns err, the failure it may be: a
// failure's body is printed too (as gh api does), as JSON whatever -o and
// --jq say, since it is not the data they were written for.
func (a answerPrinter) answer(resp *raw.Response, err error) error {
	if resp == nil {
		return err
	}
	if a.include {
		a.head(resp)
	}
	if err != nil {
		a.failure(resp.Body)
		return err
	}
	if a.quiet || len(bytes.TrimSpace(resp.Body)) == 0 {
		return nil
	}
	return a.printer.Object(resp.Body, nil)
}

// head writes the status line and the headers, sorted, then a blank line.
func (a answerPrinter) head(resp *raw.Response) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", resp.Proto, resp.Status)
	for _, name := range slices.Sorted(maps.Keys(resp.Header)) {
		for _, v := range resp.Header[name] {
			fmt.Fprintf(&b, "%s: %s\n", name, v)
		}
	}
	b.WriteByte('\n')
	fmt.Fprint(a.io.Out, output.Sanitize(b.String()))
}

// failure prints a failure's body on stdout: JSON indented, anything else
// as text (made safe for a terminal).
func (a answerPrinter) failure(body []byte) {
	if len(bytes.TrimSpace(body)) == 0 {
		return
	}
	if json.Valid(body) {
		if p, err := output.New(a.io, output.Options{Format: output.JSON}); err == nil && p.Object(body, nil) == nil {
			return
		}
	}
	text := string(body)
	if a.io.OutTTY {
		text = output.Sanitize(text)
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	fmt.Fprint(a.io.Out, text)
}
