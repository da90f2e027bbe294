package cmdutil

import (
	"runtime/debug"
	"testing"
)

// stamp is what `go version -m` shows of a binary built in a clone.
const stamp = `path	github.com/storectl/storectl/cmd/storectl
mod	github.com/storectl/storectl	v0.0.0-20261125073629-f3a8e3778bd2+dirty
build	vcs=git
build	vcs.revision=f3a8e3778bd2ae240e8a76debe824a0e2bcfa962
build	vcs.time=2026-11-25T07:36:29Z
build	vcs.modified=true
`

func TestBuildInfoFallsBackToTheVCSStamp(t *testing.T) {
	info, err := debug.ParseBuildInfo(stamp)
	if err != nil {
		t.Fatal(err)
	}
	got := BuildInfo{}.stamped(info).orUnknown()
	want := BuildInfo{Version: "0.0.0-20261125073629-f3a8e3778bd2+dirty",
		Commit: "f3a8e3778bd2ae240e8a76debe824a0e2bcfa962-dirty", Date: "2026-11-25T07:36:29Z"}
	if got != want {
		t.Errorf("clone build: %+v, want %+v", got, want)
	}

	release := BuildInfo{Version: "1.4.0", Commit: "abc", Date: "2026-01-02T03:04:05Z"}
	if got := release.stamped(info).orUnknown(); got != release {
		t.Errorf("ldflags values must win: %+v", got)
	}

	installed, _ := debug.ParseBuildInfo("path\tgithub.com/storectl/storectl/cmd/storectl\nmod\tgithub.com/storectl/storectl\tv1.4.0\th1:x=\n")
	if got := (BuildInfo{}).stamped(installed).orUnknown(); got != (BuildInfo{Version: "1.4.0", Commit: "none", Date: "unknown"}) {
		t.Errorf("go install …@v1.4.0: %+v", got)
	}

	bare, _ := debug.ParseBuildInfo("path\tcommand-line-arguments\nmod\tgithub.com/storectl/storectl\t(devel)\t\n")
	if got := (BuildInfo{}).stamped(bare).orUnknown(); got != (BuildInfo{Version: "dev", Commit: "none", Date: "unknown"}) {
		t.Errorf("no stamp at all: %+v", got)
	}
}
