package mcp

import (
	"context"
	"time"

	"github.com/storectl/storectl/internal/output"
)

// Runner runs one storectl command for one store, in process, as the
// command line would (internal/cli/mcp builds the store's command tree):
// the tools are the commands' answers, their checks and their words.
type Runner interface {
	Run(ctx context.Context, c Call) (*Answer, error)
}

// Call is one command a tool runs.
type Call struct {
	Profile string
	// Args are the noun, the verb, its flags (--name=value) and, after
	// "--", its arguments. The runner adds the store, the output format
	// and the server's own global flags.
	Args []string
	// Format is "json", or "csv" for the columns a table computes (the
	// winner's WHY): the printer's results are collected either way.
	Format string
	// Groups are the mirror's lists the answer reads ("bis", "preorder",
	// "comingsoon"), whose freshness the answer reports.
	Groups []string
	// Requests is how many shop API requests the command sends at least,
	// for the notice of how long the pace makes them wait.
	Requests int
	// Say receives, as the command runs, each line it says on stderr (and
	// the runner's notice of the pace): the client sees them as log
	// messages, before the requests are spent.
	Say func(line string)
}

// Answer is what a command printed, and how fresh the mirror it read was.
type Answer struct {
	Parts []output.Part
	// AsOf is when the least recently refreshed list of the call's Groups
	// last had a pass finish (the time the command brought them up to
	// date, if it did); zero when the command did not open the mirror.
	AsOf time.Time
	// Missing are the Groups the mirror never held.
	Missing []string
}
