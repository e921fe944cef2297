# Cardhouse developer commands. Everything here is plain `go`; make is a convenience.
GO ?= go
SHARED ?= ../shared

.PHONY: run test check scenarios bench proto

## run: build and start the server on the embedded SQLite default (./data)
run:
	$(GO) run ./platform/cmd/cardhouse serve

## test: every test (PostgreSQL tests run when CARDHOUSE_TEST_POSTGRES_DSN is set)
test:
	$(GO) test -timeout 30m ./...

## check: formatting and vet, as CI runs them
check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

## scenarios: every rule scenario, through the real plugin processes
scenarios:
	$(GO) run ./platform/cmd/cardhouse scenario rulesets/*/testdata $(wildcard $(SHARED)/scenarios)

## proto: regenerate the committed plugin wire code (sdk/plugin/internal/pb) from its .proto files
proto:
	sdk/plugin/gen.sh

## bench: the SDK, plugin and ruleset benchmarks (compare runs with benchstat)
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./sdk/... ./rulesets/...
