# toolgate's tasks. `make test` is what CI runs (.ci/run).
GO ?= go
BENCH_COUNT ?= 10

.PHONY: all generate check lint calls test vet fmt-check unit examples-test bench

all: test

# Regenerate generated/ and the catalog schemas/CATALOG.md from schemas/.
generate:
	$(GO) run ./cmd/toolgate generate --catalog schemas/CATALOG.md

# Fail with a diff when generated/ or the catalog is stale.
check:
	$(GO) run ./cmd/toolgate check --catalog schemas/CATALOG.md

# Fail on any lint error or warning in schemas/ (hints are notes).
lint:
	$(GO) run ./cmd/toolgate lint --fail-on warning --min-severity warning

# Replay the recorded refund_order calls against schemas/: each must be
# decided as recorded.
calls:
	$(GO) run ./cmd/toolgate test --calls runtime/callrecord/testdata/refund_order

# Everything CI checks: vet, gofmt, unit and conformance tests of both
# modules, the lint of schemas/, the recorded calls and the drift check.
test: vet fmt-check unit examples-test lint calls check

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

unit:
	$(GO) test ./...

examples-test:
	cd examples && $(GO) vet ./... && $(GO) test ./...

# Benchmarks of the generated decoders against json.Valid and the two-pass
# path; compare runs with benchstat (go run golang.org/x/perf/cmd/benchstat).
bench:
	$(GO) test ./generated -run '^$$' -bench . -benchmem -count $(BENCH_COUNT) | tee bench-generated.txt
