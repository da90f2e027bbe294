package api

import (
	"context"
	"io"
	"os"

	"github.com/storectl/storectl/internal/exitcode"
)

// maxInput is the most --input or one -F @FILE may hold: far more than any
// request of the shop or catalog API takes, and little enough that a
// mistaken @/dev/zero or a multi-gigabyte file is refused before it fills
// the memory.
const maxInput = 32 << 20

func openFile(name string) (io.ReadCloser, error) { return os.Open(name) }

// readBounded reads name ("-" is stdin) whole, refusing more than maxInput
// bytes. It gives up as soon as ctx ends (the first Ctrl-C), even while the
// open or a read blocks: a FIFO with no writer, a terminal.
func (opts *Options) readBounded(ctx context.Context, name string) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := opts.readAll(name)
		done <- result{data, err}
	}()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-done:
		return r.data, r.err
	}
}

func (opts *Options) readAll(name string) ([]byte, error) {
	r := opts.IO.In
	if name != "-" {
		f, err := opts.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if st, ok := f.(interface{ Stat() (os.FileInfo, error) }); ok {
			if info, err := st.Stat(); err == nil && info.Mode().IsRegular() && info.Size() > maxInput {
				return nil, tooLarge(name)
			}
		}
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxInput {
		return nil, tooLarge(name)
	}
	return data, nil
}

func tooLarge(name string) error {
	return exitcode.Usagef("%s holds more than 32 MiB, the most storectl reads for one request; send a smaller body, or split the data over several requests", sourceName(name))
}
