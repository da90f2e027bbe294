package output

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/storectl/storectl/internal/iostreams"
)

// StoreProgress shows one status line per store while a read runs over
// several stores, on a terminal that can redraw (nowhere else), and writes
// the stores' stderr lines above it, each led by its store's name.
type StoreProgress struct {
	mu     sync.Mutex
	w      io.Writer
	redraw bool
	width  int
	names  []string
	text   map[string]string
	drawn  int // lines of the block on screen
	last   time.Time
	done   bool
}

// NewStoreProgress starts the block for the stores named.
func NewStoreProgress(ios *iostreams.IOStreams, names []string) *StoreProgress {
	_, isFile := ios.StderrFile()
	return &StoreProgress{w: ios.ErrOut, redraw: ios.ErrRedraw && isFile, width: ios.TermWidth,
		names: slices.Clone(names), text: map[string]string{}}
}

// Set replaces a store's status line.
func (s *StoreProgress) Set(name, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.text[name] = text
	if time.Since(s.last) >= 100*time.Millisecond {
		s.draw()
	}
}

// Writer is a store's stderr: each line is written above the block,
// "NAME: line"; Flush writes a last line without its newline.
func (s *StoreProgress) Writer(name string) interface {
	io.Writer
	Flush()
} {
	return &storeLines{s: s, prefix: name + ": "}
}

// Stop clears the block; later lines go straight to stderr.
func (s *StoreProgress) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clear()
	s.done = true
}

// draw writes the block anew; s.mu is held.
func (s *StoreProgress) draw() {
	if !s.redraw || s.done {
		return
	}
	s.last = time.Now()
	var b bytes.Buffer
	s.clearTo(&b)
	width := max(s.width-1, 20)
	for _, n := range s.names {
		line := cellText(fmt.Sprintf("%s: %s", n, s.text[n]))
		if twwidth.Width(line) > width {
			line = twwidth.Truncate(line, width, ellipsis)
		}
		b.WriteString(line + "\n")
	}
	s.drawn = len(s.names)
	_, _ = s.w.Write(b.Bytes())
}

func (s *StoreProgress) clear() {
	var b bytes.Buffer
	s.clearTo(&b)
	if b.Len() > 0 {
		_, _ = s.w.Write(b.Bytes())
	}
}

// clearTo moves the cursor to the block's first line, clearing it.
func (s *StoreProgress) clearTo(b *bytes.Buffer) {
	if s.drawn > 0 {
		fmt.Fprintf(b, "\x1b[%dA\x1b[J", s.drawn)
		s.drawn = 0
	}
}

// storeLines prefixes whole lines with the store's name.
type storeLines struct {
	s       *StoreProgress
	prefix  string
	partial []byte
}

func (l *storeLines) Write(p []byte) (int, error) {
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	l.partial = append(l.partial, p...)
	var out bytes.Buffer
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			break
		}
		out.WriteString(l.prefix)
		out.Write(l.partial[:i+1])
		l.partial = l.partial[i+1:]
	}
	if out.Len() > 0 {
		l.s.clear()
		if _, err := l.s.w.Write(out.Bytes()); err != nil {
			return 0, err
		}
		l.s.draw()
	}
	return len(p), nil
}

// Flush writes a last line that did not end in a newline.
func (l *storeLines) Flush() {
	if len(l.partial) > 0 {
		_, _ = l.Write([]byte("\n"))
	}
}
