package cmdutil

import (
	"runtime/debug"
	"strings"
)

// BuildInfo describes the binary: `storectl version`, --version and the
// User-Agent.
type BuildInfo struct {
	Version string
	Commit  string
	Date    string
}

// UserAgent is sent with every request.
func (b BuildInfo) UserAgent() string { return "storectl/" + b.Version }

// NewBuildInfo describes this binary: what ldflags set at release time,
// else what the Go toolchain stamped into it (debug.ReadBuildInfo): the
// module version `go install …@vX` records, and for `go build` in a clone
// the commit, its time and whether the tree had changes. Without either,
// "dev", "none" and "unknown".
func NewBuildInfo(version, commit, date string) BuildInfo {
	b := BuildInfo{Version: version, Commit: commit, Date: date}
	if info, ok := debug.ReadBuildInfo(); ok {
		b = b.stamped(info)
	}
	return b.orUnknown()
}

// stamped fills the empty fields from the toolchain's record.
func (b BuildInfo) stamped(info *debug.BuildInfo) BuildInfo {
	if b.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		b.Version = strings.TrimPrefix(info.Main.Version, "v")
	}
	vcs := map[string]string{}
	for _, s := range info.Settings {
		vcs[s.Key] = s.Value
	}
	if b.Commit == "" && vcs["vcs.revision"] != "" {
		b.Commit = vcs["vcs.revision"]
		if vcs["vcs.modified"] == "true" {
			b.Commit += "-dirty"
		}
	}
	if b.Date == "" {
		b.Date = vcs["vcs.time"]
	}
	return b
}

func (b BuildInfo) orUnknown() BuildInfo {
	for field, unknown := range map[*string]string{&b.Version: "dev", &b.Commit: "none", &b.Date: "unknown"} {
		if *field == "" {
			*field = unknown
		}
	}
	return b
}
