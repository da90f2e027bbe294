package root

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// ownInitBudget bounds what storectl's own packages allocate before main
// runs, in bytes. Every run pays it (--version, an offline answer), and on
// a machine where a page fault costs tens of microseconds each fresh heap
// page shows. Regular expressions, the HTML report's template and the
// mirror's row statements are built on first use (issue 23): what remains
// at start is sync.OnceValue's closures, well under the budget.
const ownInitBudget = 64 << 10

// TestOwnPackagesInitLittle runs this test binary again with
// GODEBUG=inittrace=1, which prints every package's init allocations, and
// sums storectl's. The binary links every package the command tree does.
func TestOwnPackagesInitLittle(t *testing.T) {
	if os.Getenv("STORECTL_INITTRACE_CHILD") != "" {
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestOwnPackagesInitLittle$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", "STORECTL_INITTRACE_CHILD=1")
	var trace bytes.Buffer
	cmd.Stderr = &trace
	if err := cmd.Run(); err != nil {
		t.Fatalf("the traced run: %v\n%s", err, trace.String())
	}
	total, heaviest, heaviestBytes, packages := 0, "", 0, 0
	sc := bufio.NewScanner(&trace)
	for sc.Scan() {
		pkg, n, ok := initBytes(sc.Text())
		if !ok || !strings.HasPrefix(pkg, "github.com/storectl/storectl/") {
			continue
		}
		packages++
		total += n
		if n > heaviestBytes {
			heaviest, heaviestBytes = pkg, n
		}
	}
	if packages == 0 {
		t.Fatalf("no init trace of storectl's packages in:\n%s", trace.String())
	}
	if total > ownInitBudget {
		t.Errorf("storectl's packages allocate %d bytes before main (budget %d; heaviest %s, %d bytes): build what a run may not need on first use (sync.OnceValue)",
			total, ownInitBudget, heaviest, heaviestBytes)
	}
}

// initBytes reads a GODEBUG=inittrace line:
// "init PKG @0.1 ms, 0.02 ms clock, 1240 bytes, 4 allocs".
func initBytes(line string) (pkg string, n int, ok bool) {
	f := strings.Fields(line)
	if len(f) < 10 || f[0] != "init" || f[8] != "bytes," {
		return "", 0, false
	}
	n, err := strconv.Atoi(f[7])
	return f[1], n, err == nil
}
