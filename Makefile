.PHONY: build test lint race docs bench
build:
	go build -o bin/storectl ./cmd/storectl
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
