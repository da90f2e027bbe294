package cmdutil

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/fsutil"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// CreateResultFile starts writing a result the user asked for in a file
// (bis export --file, one store's or the merge of several): refused, with
// a hint, when its directory does not exist; mode 0600 from the first
// byte (results hold customers' e-mails and phones); nothing at path until
// Commit (a pipe or device is written as it goes). Temp files a killed
// earlier run left beside it are removed and named on ios.ErrOut.
func CreateResultFile(ios *iostreams.IOStreams, path string) (fsutil.Output, error) {
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, exitcode.UsageHint(fmt.Errorf("cannot write %s: the directory %s does not exist", path, dir), "create it first: mkdir -p "+dir)
	}
	out, err := fsutil.CreateOutput(path, 0o600)
	if err != nil {
		return nil, LocalPathError(err)
	}
	for _, name := range out.Stale() {
		fmt.Fprintf(ios.ErrOut, "removed %s, left in %s by an export that was killed\n", name, dir)
	}
	return out, nil
}

// ResultFormat is the format of a result written to file (bis export
// --file): -o from this command line, else the format the file's
// extension names, else CSV (output.FileFormat refuses the mismatches). A
// profile's or the environment's output setting is for reading at a
// terminal and does not apply.
func ResultFormat(s *config.Settings, file string) (output.Format, error) {
	flag, _ := s.OutputFlag()
	return output.FileFormat(file, flag, output.CSV)
}

// Written is what a command that writes items out (bis export) did.
type Written struct {
	What  string // the items' noun, singular: "submission"
	Where string // the file, "" for stdout
	N     int
	// Stores are each store's count, in a read over several.
	Stores []StoreCount
	// JQ says --jq reshaped the items: what it made of them was written.
	JQ bool
}

// StoreCount is how many items one store gave.
type StoreCount struct {
	Profile string
	N       int
}

// SayWritten says, in one line, what was written where: "✓ Exported 320
// submissions to all.csv", and over several stores each one's count.
func SayWritten(w io.Writer, r Written) {
	where := r.Where
	if where == "" {
		where = "stdout"
	}
	items := output.Plural(r.N, r.What)
	if r.Stores == nil {
		if r.JQ {
			// --jq runs per item and may drop or reshape items: say what was read.
			fmt.Fprintf(w, "✓ Read %s; wrote what --jq made of each to %s\n", items, where)
			return
		}
		fmt.Fprintf(w, "✓ Exported %s to %s\n", items, where)
		return
	}
	counts := make([]string, len(r.Stores))
	for i, s := range r.Stores {
		counts[i] = fmt.Sprintf("%s %d", s.Profile, s.N)
	}
	if r.JQ {
		fmt.Fprintf(w, "✓ Read %s (%s); wrote what --jq made of them to %s\n", items, strings.Join(counts, ", "), where)
		return
	}
	fmt.Fprintf(w, "✓ Exported %s to %s (%s)\n", items, where, strings.Join(counts, ", "))
}
