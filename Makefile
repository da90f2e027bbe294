.PHONY: build test lint race docs bench
BIN ?= bin/storectl
# A build in a clone says its commit as go install's does (storectl version
# 0.0.0-20261125143210-3a001193c0de (commit 3a001193…, built …)), from git
# itself: Go's own stamp is missing in a git worktree and under
# GOFLAGS=-buildvcs=false. Outside a clone the toolchain's stamp applies.
GIT_COMMIT = $(shell git rev-parse HEAD 2>/dev/null)
GIT_DIRTY = $(if $(shell git status --porcelain 2>/dev/null),-dirty)
GIT_TIME = $(shell TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ 2>/dev/null)
GIT_VERSION = $(or $(patsubst v%,%,$(shell git describe --tags --exact-match --match 'v*' 2>/dev/null)),$(shell TZ=UTC git log -1 --format=0.0.0-%cd-%h --abbrev=12 --date=format-local:%Y%m%d%H%M%S 2>/dev/null))
STAMP = $(if $(GIT_COMMIT),-ldflags "-X main.version=$(GIT_VERSION) -X main.commit=$(GIT_COMMIT)$(GIT_DIRTY) -X main.date=$(GIT_TIME)")
build:
	go build $(STAMP) -o $(BIN) ./cmd/storectl
test:
	go test ./...
race:
	go test -race ./...
lint:
	test -z "$$(gofmt -l $$(git ls-files '*.go'))"
	go vet ./...
	scripts/staticcheck
docs:
	go run ./internal/gendocs
bench:
	scripts/bench
